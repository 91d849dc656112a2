import { describe, expect, it } from 'vitest'
import { patternSample } from '../../../src/openapi/exports/pattern-sample.js'

const matches = (pattern: string, text: string | undefined) =>
  text !== undefined && new RegExp(pattern, 'u').test(text)

describe('patternSample', () => {
  it.each([
    ['^[a-z]{3}-\\d{2,4}$', 'aaa-11'],
    ['^(?:SKU|PRD)_[0-9A-F]{8}$', 'SKU_00000000'],
    ['^[^\\s@]+@[^\\s@]+$', 'a@a'],
    ['^c[^\\s-]{8,}$', 'caaaaaaaa'],
    ['^\\+?[1-9]\\d{1,14}$', '11'],
    ['^(\\d+\\.){2}\\d+$', '1.1.1'],
    ['^[\\w.]+\\\\[a-z]+$', 'a\\a'],
    ['^\\u0041\\x42[\\u0043-\\u0045]$', 'ABC'],
    ['^(?<year>\\d{4})-(?<month>0[1-9]|1[0-2])$', '1111-01'],
    ['^\\W\\D\\S\\s.$', '-aa a'],
    ['^\\p{Nd}\\P{L}\\P{N}$', '11a'],
    ['^[\\d_]\\u{1F600}\\cJ[\\b]$', '1😀\n\b'],
    // An escape JSON Schema's `u` flag refuses still stands for its character here.
    ['^\\d{3}\\-\\d{4}$', '111-1111'],
  ])('writes for %s the sample it wrote with its own parser: %j', (pattern, sample) => {
    expect(patternSample(pattern)).toBe(sample)
  })

  // Where the exports' own parser and the engine's read a pattern differently; the engine's
  // reading is the one kept, and each sample it writes matches.
  it.each([
    // `[^]` is any character (the old parser read `]` as a member and gave up).
    ['^[^]$', 'a'],
    // `\D` in a class is every non-digit, not every character.
    ['^[^\\D]$', '1'],
    // A lookaround in a later alternative does not stop the first.
    ['^a|(?=b)$', 'a'],
    // A modifier group, `(?i:…)`, is a group.
    ['^(?i:ab)$', 'ab'],
  ])('samples %s, which the old parser gave up on, as %j', (pattern, sample) => {
    expect(patternSample(pattern)).toBe(sample)
    expect(matches(pattern, sample)).toBe(true)
  })

  it.each([
    // A property in a negated class: its characters are not known (the old sample `A` did not match).
    '^[^\\p{L}]$',
    // `\p` without a property name is not a pattern with the `u` flag (the old sample was `a`).
    '\\p',
  ])('gives up on %s', (pattern) => {
    expect(patternSample(pattern)).toBeUndefined()
  })

  it.each([
    '^(a)\\1$',
    '(?=a)a',
    '[',
    '(a',
    'a)',
    '\\',
    '*a',
    '[]',
    'a{1001}',
    '^(a{1000}){11}$',
    `^${'a'.repeat(1001)}$`,
  ])('gives up on what it cannot sample: %s', (pattern) => {
    expect(patternSample(pattern)).toBeUndefined()
  })
})
