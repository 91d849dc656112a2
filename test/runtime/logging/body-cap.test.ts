import { describe, expect, it } from 'vitest'
import { capBody } from '../../../src/runtime/logging/body-cap.js'

const MARKER = /…\[truncated (\d+) bytes\]$/

// The units a cut must not split: an escape, a surrogate pair (one code point), a character.
function units(json: string): string[] {
  return json.match(/\\u[0-9a-f]{4}|\\.|./gsu) ?? []
}

function bytes(text: string): number {
  return Buffer.byteLength(text)
}

describe('capBody', () => {
  it('keeps a body whose JSON fits, as the value itself', () => {
    const body = { name: 'ada', tags: ['a', 'b'] }
    const capped = capBody(body, 2048)
    expect(capped.value).toBe(body)
    expect(capped.json).toBe('{"name":"ada","tags":["a","b"]}')
  })

  it('counts UTF-8 bytes: a body of exactly the cap fits, and a character is never split', () => {
    // {"t":"…"} is 8 bytes of ASCII around the text; € is 3 bytes.
    const exact = { t: '€'.repeat(4) }
    expect(bytes(JSON.stringify(exact))).toBe(20)
    expect(capBody(exact, 20).value).toBe(exact)
    expect(capBody(exact, 19).value).toBe('{"t":"€€€€"…[truncated 1 bytes]')
    const cut = capBody(exact, 17)
    expect(cut.value).toBe('{"t":"€€€…[truncated 5 bytes]')
    expect(cut.json).toBe(cut.value)
  })

  it('cuts a 900 KB body to the cap and says how many bytes were left out', () => {
    const { value } = capBody({ text: 'x'.repeat(900_000) }, 2048)
    const text = value as string
    expect(text.startsWith('{"text":"xxx')).toBe(true)
    expect(text.match(MARKER)?.[1]).toBe(String(900_011 - 2048))
    expect(bytes(text.replace(MARKER, ''))).toBe(2048)
  })

  it('writes only the marker with a cap of 0', () => {
    expect(capBody({ a: 1 }, 0).value).toBe('…[truncated 7 bytes]')
  })

  it('escapes what safeJson escapes before measuring (U+2028 is one line, six bytes)', () => {
    expect(capBody({ a: 'x\u2028y' }, 100).json).toBe(String.raw`{"a":"x\u2028y"}`)
    expect(capBody({ a: 'x\u2028y' }, 10).value).toBe('{"a":"x…[truncated 9 bytes]')
  })

  it('never cuts inside an escape or a surrogate pair, and keeps as much as fits', () => {
    const body = { s: 'a"b\\c\nd\u0001e😀fé€\ud800g\u2029h', list: ['😀😀', '\u001b[2J'] }
    const json = capBody(body, 10_000).json
    const parts = units(json)
    expect(parts.join('')).toBe(json)
    const total = bytes(json)
    for (let cap = 0; cap < total; cap++) {
      const text = capBody(body, cap).value as string
      const kept = text.replace(MARKER, '')
      // A whole number of units, as many as fit.
      let end = 0
      let size = 0
      while (end < parts.length && size + bytes(parts[end]!) <= cap) size += bytes(parts[end++]!)
      expect(kept).toBe(parts.slice(0, end).join(''))
      // No lone surrogate: UTF-8 would turn it into U+FFFD.
      expect(Buffer.from(kept).toString()).toBe(kept)
      expect(text.match(MARKER)?.[1]).toBe(String(total - size))
    }
  })
})
