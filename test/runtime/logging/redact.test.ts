import { describe, expect, it } from 'vitest'
import { ALWAYS_REDACTED, isSecretKey, normalizeKey } from '../../../src/runtime/logging/redact.js'

describe('ALWAYS_REDACTED', () => {
  it('cannot be changed', () => {
    expect(Object.isFrozen(ALWAYS_REDACTED)).toBe(true)
    expect(Object.isFrozen(ALWAYS_REDACTED.endingWith)).toBe(true)
  })

  it('holds only normalised names, so every entry can match', () => {
    const all = [
      ...ALWAYS_REDACTED.containing,
      ...ALWAYS_REDACTED.endingWith,
      ...ALWAYS_REDACTED.named,
    ]
    expect(all.filter((name) => normalizeKey(name) !== name || !isSecretKey(name))).toEqual([])
  })
})

describe('normalizeKey', () => {
  it('ignores case, "_", "-" and "."', () => {
    for (const key of [
      'Access-Token',
      'access_token',
      'accessToken',
      'ACCESS.TOKEN',
      '__a-c-cessToken',
    ]) {
      expect(normalizeKey(key)).toBe('accesstoken')
    }
  })
})
