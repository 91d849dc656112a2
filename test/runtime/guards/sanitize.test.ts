import { checkSync } from 'recheck'
import { describe, expect, it } from 'vitest'
import { hasHostileChars, isTooLong, sanitizeString } from '../../../src/runtime/guards/sanitize.js'

// recheck's fuzzer is seeded, so a verdict is reproducible.
const recheck = { timeout: 20_000, randomSeed: 1 }

const removed = [
  '\u0000',
  '\u200B',
  '\u200C',
  '\u200D',
  '\u2060',
  '\uFEFF',
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
]

describe('sanitizeString', () => {
  it.each(removed.map((c) => [c.codePointAt(0)!.toString(16).padStart(4, '0'), c]))(
    'removes U+%s',
    (_, c) => {
      expect(hasHostileChars(`a${c}b`)).toBe(true)
      expect(sanitizeString(`a${c}b${c}${c}`)).toBe('ab')
    },
  )

  it('keeps the neighbours of the removed ranges and ordinary text', () => {
    const kept = '\u0001\u200A\u200E\u200F\u2061\u2029\u202F\u2065\u206A\uFEFE\uFFFF héllo 😀 עברית'
    expect(hasHostileChars(kept)).toBe(false)
    expect(sanitizeString(kept)).toBe(kept)
  })

  it('returns a clean string itself', () => {
    const s = 'plain text'
    expect(sanitizeString(s)).toBe(s)
  })

  it('stays linear on a hostile string: every pattern it runs is linear by recheck’s verdict', () => {
    // The patterns sanitizeString runs, caught as they run on a string past its short-string loop
    // (32 characters), so that both the scan and the removal run.
    const ran = new Set<RegExp>()
    const exec = RegExp.prototype.exec
    RegExp.prototype.exec = function (this: RegExp, input: string) {
      ran.add(this)
      return exec.call(this, input)
    }
    try {
      expect(sanitizeString(`${'\u200B'.repeat(50)}a`)).toBe('a')
    } finally {
      RegExp.prototype.exec = exec
    }
    expect(ran.size).toBeGreaterThan(0)
    for (const re of ran) {
      expect(checkSync(re.source, re.flags, recheck).status, String(re)).toBe('safe')
    }
    expect(sanitizeString(`${'\u200B'.repeat(500_000)}a${'\u202E'.repeat(500_000)}`)).toBe('a')
  }, 60_000)
})

describe('isTooLong', () => {
  it('counts characters (code points), not UTF-16 units', () => {
    expect(isTooLong('a'.repeat(10), 10)).toBe(false)
    expect(isTooLong('a'.repeat(11), 10)).toBe(true)
    expect(isTooLong('😀'.repeat(10), 10)).toBe(false)
    expect(isTooLong('😀'.repeat(11), 10)).toBe(true)
    expect(isTooLong(`${'😀'.repeat(9)}ab`, 10)).toBe(true)
    expect(isTooLong(`${'😀'.repeat(9)}a`, 10)).toBe(false)
  })

  it('counts a lone surrogate as one character', () => {
    expect(isTooLong('\uD800'.repeat(10), 10)).toBe(false)
    expect(isTooLong('\uD800'.repeat(11), 10)).toBe(true)
    expect(isTooLong('\uDC00'.repeat(11), 10)).toBe(true)
    expect(isTooLong('\uD800x'.repeat(5), 10)).toBe(false)
    expect(isTooLong(`${'\uD800x'.repeat(5)}y`, 10)).toBe(true)
  })
})

describe('sanitizeString: short and long strings', () => {
  // Short strings are scanned by a loop, long ones by the regex: both must remove the same.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is one of the characters
  const hostile = /[\u0000\u200B-\u200D\u2060\uFEFF\u202A-\u202E\u2066-\u2069]/g
  it('treats every UTF-16 unit alike, in a short string and in a long one', () => {
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c)
      const short = `a${ch}b`
      const long = `${'x'.repeat(40)}${ch}`
      expect(sanitizeString(short)).toBe(short.replace(hostile, ''))
      expect(sanitizeString(long)).toBe(long.replace(hostile, ''))
    }
  })
})
