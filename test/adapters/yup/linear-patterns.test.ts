import fc from 'fast-check'
import { checkSync } from 'recheck'
import { describe, expect, it } from 'vitest'
import { string } from 'yup'
import {
  linearEquivalent,
  linearTestOptions,
  linearUrl,
} from '../../../src/adapters/yup/linear-patterns.js'
import type { YupTest } from '../../../src/adapters/yup/yup-test.js'
import { urlLike } from './url-like.js'

// `npm run fuzz` (FUZZ_RUNS=20000) checks ten times as many strings.
const RUNS = Math.max(50_000, Number(process.env.FUZZ_RUNS ?? 0) * 10)
const urlTest = string()
  .url()
  .tests.find((t) => t.OPTIONS?.name === 'url') as unknown as YupTest
const yupUrl = urlTest.OPTIONS.params!.regex as RegExp

// yup's pattern doubles its time with every `0.` past about 20 of them: 45 characters stay
// cheap however they are arranged.
const safeLength = 45
// recheck's fuzzer is seeded, so a verdict is reproducible.
const recheck = { timeout: 20_000, randomSeed: 1 }

describe('linearUrl', () => {
  it('is recognised as the equivalent of yup’s url pattern, and of nothing else', () => {
    expect(linearEquivalent(yupUrl)).toBe(linearUrl)
    expect(linearEquivalent(new RegExp(yupUrl.source))).toBeUndefined()
    expect(linearEquivalent(/^https?:\/\//i)).toBeUndefined()
  })

  it('accepts exactly what yup’s url pattern accepts, on URL-like strings', () => {
    let accepted = 0
    fc.assert(
      fc.property(urlLike, (s) => {
        fc.pre(s.length <= safeLength)
        const expected = yupUrl.test(s)
        if (expected) accepted++
        expect(linearUrl.test(s), JSON.stringify(s)).toBe(expected)
      }),
      { numRuns: RUNS },
    )
    // A corpus that only rejects would prove little.
    expect(accepted).toBeGreaterThan(RUNS / 20)
  })

  it('accepts exactly what yup’s url pattern accepts, on any short string of its characters', () => {
    const unit = fc.constantFrom(...'htpfs:/.@a1-_~%4?#!=Z\u00a0\ue000 '.split(''))
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 30 }), (s) => {
        expect(linearUrl.test(s), JSON.stringify(s)).toBe(yupUrl.test(s))
      }),
      { numRuns: RUNS / 5 },
    )
  })

  it('is linear by recheck’s verdict where yup’s pattern backtracks exponentially', () => {
    const verdict = (re: RegExp) => checkSync(re.source, re.flags, recheck)
    expect(verdict(linearUrl).status).toBe('safe')
    const yups = verdict(yupUrl)
    expect(yups.status === 'vulnerable' && yups.complexity.type).toBe('exponential')
    // recheck's attack on yup's pattern ('//T.' + '0.'.repeat(n) + '\x00', its time exponential
    // in n) and a long host, both refused.
    for (const s of ['//T.' + '0.'.repeat(5000) + '\x00', `http://${'a.'.repeat(5000)}!`]) {
      expect(linearUrl.test(s)).toBe(false)
    }
  }, 60_000)
})

describe('linearTestOptions', () => {
  it('rebuilds yup’s url test on the linear pattern, keeping its name, message and params', () => {
    const options = linearTestOptions(urlTest.OPTIONS)!
    expect(options.name).toBe('url')
    expect(options.params).toBe(urlTest.OPTIONS.params)
    expect((options as { message?: unknown }).message).toBe(
      (urlTest.OPTIONS as { message?: unknown }).message,
    )
    // url() passes the empty string (excludeEmptyString), as yup's own test does.
    expect(options.test('', undefined)).toBe(true)
    expect(options.test('https://a.io', undefined)).toBe(true)
    expect(options.test('a.io', undefined)).toBe(false)
    expect(linearTestOptions(options)).toBeUndefined()
  })

  it('keeps excludeEmptyString as yup’s matches() closure has it', () => {
    const test = (s: { tests: unknown[] }) => s.tests.at(-1) as YupTest
    const strict = linearTestOptions(test(string().matches(yupUrl)).OPTIONS)!
    expect(strict.test('', undefined)).toBe(false)
    const lax = linearTestOptions(
      test(string().matches(yupUrl, { excludeEmptyString: true })).OPTIONS,
    )!
    expect(lax.test('', undefined)).toBe(true)
  })

  it('leaves tests whose pattern needs no replacement', () => {
    const email = string().email().tests.at(-1) as unknown as YupTest
    expect(linearTestOptions(email.OPTIONS)).toBeUndefined()
  })
})
