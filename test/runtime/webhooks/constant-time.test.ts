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
  const digest = Buffer.from('00ff10a5', 'hex')
  it('passes when any well-formed candidate equals any digest', () => {
    expect(matchesAny([Buffer.from('ffffffff', 'hex'), digest], ['zz', '00ff10a5'], 'hex')).toBe(true)
    expect(matchesAny([digest], [], 'hex')).toBe(false)
  })

  it('accepts only the one spelling a sender writes: lowercase hex, canonical base64', () => {
    for (const spelling of ['00FF10A5', '00ff10a', '00ff10a5a', '00ff10a5\n', ' 00ff10a5', '']) {
      expect(matchesAny([digest], [spelling], 'hex'), spelling).toBe(false)
    }
    expect(digest.toString('base64')).toBe('AP8QpQ==')
    expect(matchesAny([digest], ['AP8QpQ=='], 'base64')).toBe(true)
    // Same bytes, other unused bits or padding: a second spelling of the signature.
    for (const spelling of ['AP8QpR==', 'AP8QpQ', 'AP8QpQ=', 'AP8Q pQ==', 'ap8QpQ==']) {
      expect(matchesAny([digest], [spelling], 'base64'), spelling).toBe(false)
    }
  })
})
