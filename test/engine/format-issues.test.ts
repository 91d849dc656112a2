import { describe, expect, it } from 'vitest'
import { formatIssues } from '../../src/engine/index.js'

const issues = [
  { path: ['address', 'zip'], message: 'Invalid', code: 'invalid_format' },
  { path: ['items', 0, 'name'], message: 'Required', code: 'invalid_type' },
  { path: [], message: 'Expected object, received array', code: 'invalid_type' },
]

describe('formatIssues', () => {
  it('writes the dotted path inside the part, or the part name at the root', () => {
    expect(formatIssues(issues, 'body', true)).toEqual([
      { field: 'address.zip', message: 'Invalid', code: 'invalid_format' },
      { field: 'items.0.name', message: 'Required', code: 'invalid_type' },
      { field: 'body', message: 'Expected object, received array', code: 'invalid_type' },
    ])
    expect(formatIssues(issues.slice(2), 'query', true)[0]?.field).toBe('query')
  })

  it('keeps only the first issue unless allErrors', () => {
    expect(formatIssues(issues, 'params', false)).toEqual([
      { field: 'address.zip', message: 'Invalid', code: 'invalid_format' },
    ])
  })
})
