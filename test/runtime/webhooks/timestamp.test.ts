import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseTimestamp, withinWindow } from '../../../src/runtime/webhooks/timestamp.js'

describe('parseTimestamp', () => {
  it('reads 1 to 12 ASCII digits', () => {
    expect(parseTimestamp('1700000000')).toBe(1_700_000_000)
    expect(parseTimestamp('0')).toBe(0)
    expect(parseTimestamp('999999999999')).toBe(999_999_999_999)
  })

  it('refuses signs, spaces, floats, exponents, hex, other digits and too many digits', () => {
    for (const text of [
      '',
      ' 1',
      '1 ',
      '+1',
      '-1',
      '1.0',
      '1e9',
      '0x10',
      '١٢٣',
      'Infinity',
      '1_000',
      '1234567890123',
    ]) {
      expect(parseTimestamp(text), text).toBeUndefined()
    }
  })

  it('agrees with Number() on every digit string it accepts, and accepts only digit strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 14 }), (text) => {
        const value = parseTimestamp(text)
        const digits = /^[0-9]{1,12}$/.test(text)
        expect(value === undefined).toBe(!digits)
        if (value !== undefined) expect(value).toBe(Number(text))
      }),
    )
  })
})

describe('withinWindow', () => {
  it('past only (Stripe) or both ways, inclusive at the edge', () => {
    expect(withinWindow(1000, 1300, 300, 'past')).toBe(true)
    expect(withinWindow(999, 1300, 300, 'past')).toBe(false)
    expect(withinWindow(99_999, 1300, 300, 'past')).toBe(true)
    expect(withinWindow(1600, 1300, 300, 'both')).toBe(true)
    expect(withinWindow(1601, 1300, 300, 'both')).toBe(false)
    expect(withinWindow(999, 1300, 300, 'both')).toBe(false)
  })
})
