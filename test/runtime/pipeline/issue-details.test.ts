import { describe, expect, it } from 'vitest'
import { debugExposure } from '../../../src/runtime/middleware/resolve-config.js'
import { validationError } from '../../../src/runtime/pipeline/issue-details.js'

const issues = [
  { path: ['role'], message: 'Invalid option: expected one of "a"|"b"', code: 'invalid_value' },
  { path: ['address', 'zip'], message: 'Too short', code: 'too_small' },
  { path: [], message: 'body is required', code: 'required' },
]
const dev = debugExposure(true)

describe('validationError', () => {
  it('is a 422 VALIDATION_ERROR with the first issue unless allErrors', () => {
    const one = validationError(issues, 'body', false, dev)
    expect(one.statusCode).toBe(422)
    expect(one.code).toBe('VALIDATION_ERROR')
    expect(one.details).toEqual({ field: 'role', message: issues[0]!.message })
    const all = validationError(issues, 'body', true, dev)
    expect(all.details).toEqual([
      { field: 'role', message: issues[0]!.message },
      { field: 'address.zip', message: 'Too short' },
      { field: 'body', message: 'body is required' },
    ])
  })

  it('hides enum values in production, and nothing else', () => {
    const prod = validationError(issues, 'query', true, debugExposure(false))
    expect(prod.details).toEqual([
      { field: 'role', message: 'Invalid option' },
      { field: 'address.zip', message: 'Too short' },
      { field: 'query', message: 'body is required' },
    ])
  })

  it('hides field names and messages, and shows codes, when told', () => {
    const e = validationError(issues.slice(0, 2), 'body', true, {
      fieldName: false,
      message: false,
      enumValues: true,
      schemaCodes: true,
    })
    expect(e.details).toEqual([
      { field: 'body', message: 'Invalid value', code: 'invalid_value' },
      { field: 'body', message: 'Invalid value', code: 'too_small' },
    ])
  })

  it('names the part for a root-level issue', () => {
    const e = validationError(
      [{ path: [], message: 'Expected object, received array', code: 'invalid_type' }],
      'headers',
      false,
      dev,
    )
    expect(e.details).toEqual({ field: 'headers', message: 'Expected object, received array' })
  })
})
