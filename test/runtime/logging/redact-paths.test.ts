import { describe, expect, it } from 'vitest'
import { validateRedactPaths } from '../../../src/runtime/logging/redact-paths.js'
import { createRedactor } from '../../../src/runtime/logging/redactor.js'

describe('validateRedactPaths', () => {
  it('accepts key names, dotted paths, request paths and wildcards', () => {
    const paths = [
      'email',
      'card.number',
      'req.headers.x-api-key',
      'req.body.dob',
      'body.dob',
      'reqBody.dob',
      'res.body.data.ssn',
      'items.*.serial',
      '*.dob',
      'tags.*',
    ]
    expect(validateRedactPaths(paths)).toEqual(paths)
    expect(validateRedactPaths(undefined)).toEqual([])
  })

  it('takes a first segment named like an Object.prototype member as a key', () => {
    const paths = ['constructor.secretish', 'Constructor.x', 'toString.y', '__proto__.z']
    expect(validateRedactPaths(paths)).toEqual(paths)
    const redact = createRedactor(paths)
    expect(redact({ constructor: { secretish: 's', kept: 1 } })).toEqual({
      constructor: { secretish: '[REDACTED]', kept: 1 },
    })
  })

  it.each([
    ['', 'an empty path'],
    ['a..b', 'an empty segment'],
    ['.a', 'a leading dot'],
    ['a.', 'a trailing dot'],
    ['items[0]', 'brackets'],
    ['first name', 'a space'],
  ])('rejects %j (%s) at mount time, naming its index', (path) => {
    expect(() => validateRedactPaths(['ok', path])).toThrow(
      /logger\.redact\[1\]: .* is not a valid path/,
    )
  })

  it.each([
    ['*', /would redact every value/],
    ['*.*', /would redact every value/],
    ['a.__.b', /names no key/],
    [
      Array.from({ length: 33 }, () => 'a').join('.'),
      /deeper than the 32 levels .* can never match/,
    ],
  ])('rejects %j, which can never match (or matches everything), saying why', (path, why) => {
    expect(() => validateRedactPaths([path])).toThrow(why)
  })

  it('rejects a non-array and non-string entries', () => {
    expect(() => validateRedactPaths('password')).toThrow(/logger\.redact: must be an array/)
    expect(() => validateRedactPaths([42])).toThrow(/logger\.redact\[0\]: 42 is not a string/)
  })
})
