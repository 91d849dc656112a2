import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  comparator,
  encodedLength,
  safeEqual,
} from '../../../src/runtime/webhooks/constant-time.js'

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

describe('comparator', () => {
  it('passes when any candidate equals any expected signature, exactly as written', () => {
    const compare = comparator(8)
    expect(compare(['ffffffff', '00ff10a5'], ['zz', '00ff10a5'])).toBe(true)
    expect(compare(['00ff10a5'], [])).toBe(false)
    for (const spelling of ['00FF10A5', '00ff10a', '00ff10a5a', ' 00ff10a', '']) {
      expect(compare(['00ff10a5'], [spelling]), spelling).toBe(false)
    }
  })

  it('refuses a candidate with a character above U+00FF that latin1 would fold onto the signature', () => {
    const compare = comparator(4)
    // latin1 keeps only the low byte: U+0161 would be written as 'a' (0x61).
    expect(compare(['abcd'], ['\u0161bcd'])).toBe(false)
    expect(compare(['abcd'], ['abc\u0164'])).toBe(false)
  })

  it('keeps no state from one call to the next', () => {
    const compare = comparator(4)
    expect(compare(['abcd'], ['abcd'])).toBe(true)
    expect(compare(['abcd'], ['abc'])).toBe(false)
    expect(compare(['wxyz'], ['abcd'])).toBe(false)
  })

  it('sizes signatures by hash and encoding', () => {
    expect(encodedLength('sha256', 'hex')).toBe(64)
    expect(encodedLength('sha256', 'base64')).toBe(44)
    expect(encodedLength('sha1', 'base64')).toBe(28)
  })
})
