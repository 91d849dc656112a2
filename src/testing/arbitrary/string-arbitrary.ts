import type { Arbitrary } from 'fast-check'
import type { IRString, IRStringCheck } from '../../engine/ir/types.js'
import type { FC } from '../load-fast-check.js'
import { sizes } from './reach.js'

type Pattern = Extract<IRStringCheck, { kind: 'pattern' }>

/** Length bounds of a string node, in its own unit (the tightest of its checks). */
export function stringBounds(node: IRString): { min: number; max: number | undefined } {
  let min = 0
  let max: number | undefined
  for (const c of node.checks) {
    if (c.kind === 'min_length' || c.kind === 'length') min = Math.max(min, c.value)
    if (c.kind === 'max_length' || c.kind === 'length')
      max = max === undefined ? c.value : Math.min(max, c.value)
  }
  return { min, max }
}

/**
 * Characters of a generated string. One fast-check unit is one character of the node's length
 * unit: astral characters (two UTF-16 units, one code point) only where code points are counted.
 */
function chars(fc: FC, unit: IRString['lengthUnit']): Arbitrary<string> {
  const wide = unit === 'code-point' ? ['é', 'ß', '中', '😀', '𝒳'] : ['é', 'ß', '中', 'Ω']
  // Shrinks towards 'a'; control characters are the hostile mode's business.
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constantFrom(...'abcxyzABC019_-.'), weight: 6 },
    { arbitrary: fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme-ascii' }), weight: 2 },
    { arbitrary: fc.constantFrom(...wide), weight: 1 },
  )
}

// From this length on, a string is a short random head padded to its length: generating every
// character through fast-check takes a minute for 100,000 and the heap for 20,000,000.
const PAD_FROM = 100

/**
 * A plain string of `min` to `top` characters of the node's unit: most near `min`, the others
 * anywhere up to `top` and often `top` itself (reach.ts). From {@link PAD_FROM} characters on, a
 * random head of up to 12 characters padded to its length.
 */
export function plainString(fc: FC, node: IRString, min: number, top: number): Arbitrary<string> {
  const unit = chars(fc, node.lengthUnit)
  const last = Math.max(min, top)
  const near = Math.min(last, min + 12)
  if (last < PAD_FROM)
    return fc.oneof(
      { withCrossShrink: true },
      { arbitrary: fc.string({ unit, minLength: min, maxLength: near }), weight: 3 },
      ...(last > near
        ? [
            {
              arbitrary: sizes(fc, min, last).chain((n) =>
                fc.string({ unit, minLength: n, maxLength: n }),
              ),
              weight: 2,
            },
          ]
        : []),
    )
  // One fast-check unit is one character of the node's unit: the head's length is its count.
  const length = last > near ? sizes(fc, min, last) : fc.constant(min)
  return fc.tuple(fc.string({ unit, maxLength: Math.min(12, last) }), length).map(([head, n]) => {
    const cs = Array.from(head)
    return cs.length >= n ? cs.slice(0, n).join('') : head + 'a'.repeat(n - cs.length)
  })
}

const flagless = (re: RegExp) => new RegExp(re.source, re.flags.replace(/[gy]/g, ''))

/** Strings of the first pattern fast-check can generate from, or undefined. */
function fromPattern(fc: FC, patterns: readonly Pattern[]): Arbitrary<string> | undefined {
  for (const p of patterns) {
    if (p.affix !== undefined || p.format === 'lowercase' || p.format === 'uppercase') continue
    try {
      return fc.stringMatching(flagless(p.pattern))
    } catch {
      // A flag or construct fast-check cannot generate from (e.g. `i`): try the next, else plain.
    }
  }
  return undefined
}

/** Strings of a well-known format for checks that are a library's own function. */
function fromFormat(fc: FC, format: string): Arbitrary<string> | undefined {
  const iso = fc
    .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z') })
    .filter((d) => !Number.isNaN(d.getTime()))
    .map((d) => d.toISOString())
  const table: Record<string, () => Arbitrary<string>> = {
    email: () => fc.emailAddress(),
    uuid: () => fc.uuid(),
    guid: () => fc.uuid(),
    url: () => fc.webUrl(),
    ipv4: () => fc.ipV4(),
    ipv6: () => fc.ipV6(),
    datetime: () => iso,
    'date-time': () => iso,
    date: () => iso.map((s) => s.slice(0, 10)),
    time: () => iso.map((s) => s.slice(11, 19)),
  }
  return Object.hasOwn(table, format) ? table[format]!() : undefined
}

/** Applies the affix and case checks a generated base string may miss. */
function fixUp(node: IRString, s: string): string {
  let out = s
  for (const c of node.checks) {
    if (c.kind !== 'pattern') continue
    if (c.format === 'lowercase') out = out.toLowerCase()
    else if (c.format === 'uppercase') out = out.toUpperCase()
    else if (c.affix === undefined) continue
    else if (c.format === 'starts_with' && !out.startsWith(c.affix)) out = c.affix + out
    else if (c.format === 'ends_with' && !out.endsWith(c.affix)) out += c.affix
    else if (c.format === 'includes' && !out.includes(c.affix)) out += c.affix
  }
  return out
}

/**
 * Candidate strings for a string node: from its first pattern fast-check can generate from, a
 * known format, or plain characters in the length bounds, then made to carry its affixes and case.
 * The caller filters them with the node's own checks (what this cannot guarantee: a length and
 * a pattern together, two patterns).
 * @param reach the longest plain string to make when the node allows longer (the part's caps)
 */
export function stringCandidates(fc: FC, node: IRString, reach: number): Arbitrary<string> {
  const patterns = node.checks.filter((c): c is Pattern => c.kind === 'pattern')
  const { min, max } = stringBounds(node)
  const top = Math.min(max ?? reach, reach)
  const affixes = patterns.reduce((n, p) => n + (p.affix?.length ?? 0), 0)
  const formats = node.checks.flatMap((c) => (c.kind === 'format' ? [c.format] : []))
  const base =
    fromPattern(fc, patterns) ??
    formats.map((f) => fromFormat(fc, f)).find((a) => a !== undefined) ??
    patterns.map((p) => fromFormat(fc, p.format)).find((a) => a !== undefined) ??
    plainString(fc, node, Math.max(0, min - affixes), top - affixes)
  return base.map((s) => fixUp(node, s))
}
