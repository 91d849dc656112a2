import { describe, expect, it } from 'vitest'
import { maskedText, secretPlaces, withValues } from '../../src/shared/credential-places.js'

// maskedText hides every credential value a run sent wherever it turns up, each in one piece even
// where two values overlap or touch.

const places = (headers: Record<string, string>, url = '/') =>
  withValues(secretPlaces(undefined, Object.keys(headers)), [{ url, headers }])

describe('maskedText', () => {
  it('masks overlapping values as one span, leaving no part of either', () => {
    const p = places({ authorization: 'Bearer AAAA1111', 'x-api-key': '1111BBBB' })
    expect(maskedText('echo AAAA1111BBBB end', p)).toBe('echo *** end')
    expect(maskedText('1111BBBBAAAA1111', p)).toBe('***')
    expect(maskedText('a AAAA1111 b 1111BBBB c', p)).toBe('a *** b *** c')
  })

  it('masks each form of a value, a value inside a longer one, and leaves other text as it is', () => {
    const p = places({ 'x-api-key': 'k ey/1234' })
    expect(maskedText('k%20ey%2F1234 k+ey%2F1234 k%20ey%2f1234', p)).toBe('*** *** ***')
    expect(maskedText('{"a":"k ey/1234","b":"k ey/12345"}', p)).toBe('{"a":"***","b":"***5"}')
    expect(maskedText('nothing here', p)).toBe('nothing here')
    expect(maskedText('k ey/1234', undefined)).toBe('k ey/1234')
  })
})
