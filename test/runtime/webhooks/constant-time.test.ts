import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { matchesAny, safeEqual } from '../../../src/runtime/webhooks/constant-time.js'

describe('safeEqual', () => {
  it('is true exactly for equal bytes, whatever the lengths', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }), (a, b) => {
        expect(safeEqual(Buffer.from(a), Buffer.from(b))).toBe(
          Buffer.from(a).equals(Buffer.from(b)),
        )
        expect(safeEqual(Buffer.from(a), Buffer.from(a))).toBe(true)
      }),
    )
  })

  it('never returns early on a length mismatch: it still compares expected bytes in full', () => {
    // A prefix, an extension and an empty candidate are all refused, none of them by a throw.
    const expected = Buffer.from('abcdef0123456789')
    for (const candidate of ['abcdef012345678', 'abcdef0123456789a', '']) {
      expect(safeEqual(expected, Buffer.from(candidate))).toBe(false)
    }
  })
})

describe('matchesAny', () => {
  it('passes when any candidate equals any expected value', () => {
    expect(matchesAny(['aa', 'bb'], ['zz', 'bb'])).toBe(true)
    expect(matchesAny(['aa'], ['AA', 'a', 'aaa', ''])).toBe(false)
    expect(matchesAny(['aa'], [])).toBe(false)
  })
})
