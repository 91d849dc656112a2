import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isoNow } from '../../../src/runtime/logging/iso-time.js'

afterEach(() => vi.useRealTimers())

describe('isoNow', () => {
  it('is new Date().toISOString() at any moment, also twice in one millisecond', () => {
    vi.useFakeTimers()
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (t) => {
        vi.setSystemTime(t)
        expect(isoNow()).toBe(new Date(t).toISOString())
        expect(isoNow()).toBe(new Date(t).toISOString())
      }),
    )
  })

  it('moves on with the clock: milliseconds, seconds', () => {
    vi.useFakeTimers()
    for (const t of [1_700_000_000_998, 1_700_000_000_999, 1_700_000_001_000, 1_700_000_001_009]) {
      vi.setSystemTime(t)
      expect(isoNow()).toBe(new Date(t).toISOString())
    }
  })
})
