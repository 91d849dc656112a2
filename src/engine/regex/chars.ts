// Character sets as code-unit ranges: what one position of a regular expression reads.

/** Code-unit ranges, inclusive; an approximation of what one character position accepts. */
export type Chars = readonly (readonly [number, number])[]

/** The last code unit: a code point above it counts as this one. */
export const MAX = 0xffff

/** `\d`, `\w` and `\s` by their letter; the capital letter is the inverted set. */
export const classChars: ReadonlyMap<string, Chars> = new Map<string, Chars>([
  ['d', [[48, 57]]],
  [
    'w',
    [
      [48, 57],
      [65, 90],
      [95, 95],
      [97, 122],
    ],
  ],
  [
    's',
    [
      [9, 13],
      [32, 32],
      [160, 160],
      [0x1680, 0x1680],
      [0x2000, 0x200a],
      [0x2028, 0x2029],
      [0x202f, 0x202f],
      [0x205f, 0x205f],
      [0x3000, 0x3000],
      [0xfeff, 0xfeff],
    ],
  ],
])

/** What `.` does not read without the `s` flag. */
export const lineEnds: Chars = [
  [10, 10],
  [13, 13],
  [0x2028, 0x2029],
]

/** Every code unit the set does not hold. */
export function invert(c: Chars): Chars {
  const sorted = [...c].sort((a, b) => a[0] - b[0])
  const out: [number, number][] = []
  let next = 0
  for (const [lo, hi] of sorted) {
    if (lo > next) out.push([next, lo - 1])
    next = Math.max(next, hi + 1)
  }
  if (next <= MAX) out.push([next, MAX])
  return out
}

/** Whether two character sets share a character. */
export const overlaps = (a: Chars, b: Chars): boolean =>
  a.some(([lo, hi]) => b.some(([l, h]) => lo <= h && l <= hi))

/** The set with both cases of each ASCII letter in it. */
export function caseless(c: Chars): Chars {
  const out = [...c]
  for (const [lo, hi] of c) {
    for (const [from, to, shift] of [
      [65, 90, 32],
      [97, 122, -32],
    ] as const) {
      const l = Math.max(lo, from)
      const h = Math.min(hi, to)
      if (l <= h) out.push([l + shift, h + shift])
    }
  }
  return out
}

// In order of preference: common, printable, plain.
const common = [...'aA1_-zZ9 .~é'].map((c) => c.charCodeAt(0))

/** The first of a few common characters that the set holds (a, A, 1, _, -, …), if any. */
export const commonIn = (c: Chars): number | undefined =>
  common.find((code) => overlaps(c, [[code, code]]))
