import { randomBytes } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { safeEqual } from '../../../src/index.js'

// Any UTF-16 code unit, lone surrogates included.
const unit = fc.nat(0xffff).map((c) => String.fromCharCode(c))
const text = fc.string({ unit, maxLength: 40 })
// Equal strings, strings one edit apart and unrelated ones, as distinct string objects.
const pair = fc.oneof(
  fc.tuple(text, text),
  text.map((a) => [a, [...a].join('')] as const),
  fc
    .tuple(text, unit, fc.nat())
    .map(([a, c, at]) => [a, a.slice(0, at % (a.length + 1)) + c + a.slice(at % (a.length + 1))]),
)

describe('safeEqual', () => {
  it('is true exactly when the two strings are equal', () => {
    fc.assert(fc.property(pair, ([a, b]) => safeEqual(a, b) === (a === b)))
  })

  it.each([
    ['', '', true],
    ['', 'x', false],
    ['key', 'key ', false],
    ['é', 'e\u0301', false],
    // UTF-8 would write both lone surrogates (and U+FFFD) as the same three bytes.
    ['\uD800', '\uDBFF', false],
    ['\uD800', '\uFFFD', false],
    ['\uDC00\uD800', '\uDC00\uD800', true],
    ['x'.repeat(100_000), 'x'.repeat(100_000), true],
  ])('safeEqual(%j, %j) is %s', (a, b, want) => {
    expect(safeEqual(a, b)).toBe(want)
    expect(safeEqual(b, a)).toBe(want)
  })

  it('never throws, and anything but two strings (an unset variable) is never equal', () => {
    for (const value of [undefined, null, 0, {}, ['k'], Symbol('k')]) {
      expect(safeEqual('k', value as never)).toBe(false)
      expect(safeEqual(value as never, 'k')).toBe(false)
      expect(safeEqual(value as never, value as never)).toBe(false)
    }
    expect(safeEqual(String(undefined), undefined as never)).toBe(false)
  })
})

// Timing: each guess against a long key, in rounds that time every guess one after the other;
// each round's time of a wrong guess over its time of the right one, then the median of those
// ratios. A slow moment of the machine falls on a whole round, guesses alike, and the median
// drops the rounds it split. A key this long makes a leak far larger than the clock's noise: an
// early exit saves the time of comparing 128 K characters.

const SIZE = 1 << 17
const ROUNDS = 61

/** A flat string (not a rope, nor a slice of another): what a request's header gives a verifier. */
const flat = (s: string) => Buffer.from(s, 'latin1').toString('latin1')

function guesses(key: string): Record<string, string> {
  const other = (c: string) => (c === 'a' ? 'b' : 'a')
  return {
    right: flat(key),
    'wrong first character': flat(other(key[0]!) + key.slice(1)),
    'wrong last character': flat(key.slice(0, -1) + other(key.at(-1)!)),
    'one character longer': flat(`${key}a`),
    'one character shorter': flat(key.slice(0, -1)),
  }
}

const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!

/** Each wrong guess's time over the right one's, median of the rounds. */
function timingRatios(compare: (given: string, expected: string) => boolean) {
  const key = randomBytes(SIZE / 2).toString('hex')
  const given = Object.entries(guesses(key))
  const ratios = new Map(given.slice(1).map(([name]) => [name, [] as number[]]))
  const took = new Map<string, number>()
  for (let round = -3; round < ROUNDS; round++) {
    // A different first guess each round: no guess always runs right after another.
    for (let i = 0; i < given.length; i++) {
      const [name, guess] = given[(i + round + 3) % given.length]!
      const start = process.hrtime.bigint()
      compare(guess, key)
      took.set(name, Number(process.hrtime.bigint() - start))
    }
    if (round < 0) continue
    for (const [name, list] of ratios) list.push(took.get(name)! / took.get('right')!)
  }
  return Object.fromEntries([...ratios].map(([name, list]) => [name, median(list)]))
}

const FLAT = { low: 0.5, high: 2 }
const isFlat = (ratios: Record<string, number>) =>
  Object.values(ratios).every((r) => r >= FLAT.low && r <= FLAT.high)

describe('safeEqual timing', () => {
  it('takes as long for a wrong key as for the right one, wherever it differs', () => {
    const ratios = timingRatios(safeEqual)
    expect(isFlat(ratios), JSON.stringify(ratios)).toBe(true)
  })

  it('the measure tells an early-exit comparison apart', () => {
    const earlyExit = (a: string, b: string) => {
      if (a.length !== b.length) return false
      for (let i = 0; i < a.length; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false
      return true
    }
    for (const compare of [earlyExit, (a: string, b: string) => a === b]) {
      const ratios = timingRatios(compare)
      expect(isFlat(ratios), JSON.stringify(ratios)).toBe(false)
      expect(ratios['wrong first character']).toBeLessThan(FLAT.low)
    }
  })
})
