import { describe, expect, it } from 'vitest'
import { ALWAYS_REDACTED, validateRedactPaths } from '../../../src/runtime/logging/redact.js'

describe('ALWAYS_REDACTED', () => {
  it('lists SPEC.md 6.2 and cannot be changed', () => {
    expect(ALWAYS_REDACTED).toEqual([
      'password',
      'passwordHash',
      'token',
      'secret',
      'accessToken',
      'refreshToken',
      'apiKey',
      'cardNumber',
      'cvv',
      'ssn',
      'pin',
      'req.headers.authorization',
      'req.headers.cookie',
      'req.query.token',
      'req.query.apiKey',
    ])
    expect(Object.isFrozen(ALWAYS_REDACTED)).toBe(true)
  })
})

describe('validateRedactPaths', () => {
  it('accepts key names, dotted paths and wildcards', () => {
    expect(
      validateRedactPaths(['email', 'card.number', 'req.headers.x-api-key', 'items.*.serial']),
    ).toHaveLength(4)
    expect(validateRedactPaths(undefined)).toEqual([])
  })

  it.each([
    ['', 'an empty path'],
    ['a..b', 'an empty segment'],
    ['.a', 'a leading dot'],
    ['a.', 'a trailing dot'],
    ['items[0]', 'brackets'],
    ['first name', 'a space'],
    ['*', 'a lone wildcard'],
  ])('rejects %j (%s) at mount time, naming its index', (path) => {
    expect(() => validateRedactPaths(['ok', path])).toThrow(
      /logger\.redact\[1\] .* is not a valid path/,
    )
  })

  it('rejects a non-array and non-string entries', () => {
    expect(() => validateRedactPaths('password')).toThrow(/logger\.redact must be an array/)
    expect(() => validateRedactPaths([42])).toThrow(/logger\.redact\[0\] \(42\)/)
  })
})
