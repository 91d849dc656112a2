// The structure of a regular expression, approximately: enough to see repetition and which
// characters each part reads (the regex-risk screen), never to match.

/** Code-unit ranges, inclusive; an approximation of what one character position accepts. */
export type Chars = readonly (readonly [number, number])[]

/** A pattern's tree: characters, sequences, alternatives, repetitions, zero-width parts. */
export type Node =
  | { readonly t: 'char'; readonly chars: Chars }
  | { readonly t: 'seq'; readonly items: readonly Node[] }
  | { readonly t: 'alt'; readonly options: readonly Node[] }
  | { readonly t: 'rep'; readonly body: Node; readonly min: number; readonly max: number }
  | { readonly t: 'empty'; readonly anchor?: boolean }

const MAX = 0xffff
const digit: Chars = [[48, 57]]
const word: Chars = [
  [48, 57],
  [65, 90],
  [95, 95],
  [97, 122],
]
const space: Chars = [
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
]
const lineEnds: Chars = [
  [10, 10],
  [13, 13],
  [0x2028, 0x2029],
]

function invert(c: Chars): Chars {
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

function caseless(c: Chars): Chars {
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

/** Parses a pattern into the approximate tree above (what it cannot read becomes `empty`). */
export function parse(source: string, flags: string): Node {
  let i = 0
  const dot: Chars = flags.includes('s') ? [[0, MAX]] : invert(lineEnds)
  const fold = (c: Chars) => (flags.includes('i') ? caseless(c) : c)
  const escaped = (): Chars | undefined => {
    const c = source[i++]!
    const classes: Record<string, Chars> = { d: digit, w: word, s: space }
    if (classes[c]) return classes[c]
    if (classes[c.toLowerCase()]) return invert(classes[c.toLowerCase()]!)
    if (c === 'b' || c === 'B' || /[1-9]/.test(c)) return undefined
    if (c === 'k' && source[i] === '<') {
      i = source.indexOf('>', i) + 1
      return undefined
    }
    if ((c === 'p' || c === 'P') && source[i] === '{') {
      i = source.indexOf('}', i) + 1
      return [[0, MAX]]
    }
    const hex = c === 'x' ? 2 : c === 'u' ? (source[i] === '{' ? -1 : 4) : 0
    if (hex === -1) {
      const end = source.indexOf('}', i)
      const code = Number.parseInt(source.slice(i + 1, end), 16)
      i = end + 1
      return [[Math.min(code, MAX), Math.min(code, MAX)]]
    }
    if (hex > 0) {
      const code = Number.parseInt(source.slice(i, i + hex), 16)
      i += hex
      return [[code, code]]
    }
    const known: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, '0': 0 }
    const code = known[c] ?? c.charCodeAt(0)
    return [[code, code]]
  }
  const classAtom = (): Chars | undefined => {
    if (source[i] !== '\\') {
      const code = source.charCodeAt(i++)
      return [[code, code]]
    }
    i++
    return escaped()
  }
  const charClass = (): Chars => {
    const negate = source[i] === '^'
    if (negate) i++
    const out: (readonly [number, number])[] = []
    while (i < source.length && source[i] !== ']') {
      const lo = classAtom()
      const single = lo?.length === 1 && lo[0]![0] === lo[0]![1]
      if (single && source[i] === '-' && source[i + 1] !== ']') {
        i++
        const hi = classAtom()
        out.push([lo![0]![0], hi?.[0]?.[1] ?? lo![0]![0]])
      } else if (lo) out.push(...lo)
    }
    i++
    return negate ? invert(fold(out)) : fold(out)
  }
  const atom = (): Node => {
    const c = source[i++]!
    if (c === '(') {
      let look = false
      if (source[i] === '?') {
        look =
          source[i + 1] === '=' ||
          source[i + 1] === '!' ||
          (source[i + 1] === '<' && (source[i + 2] === '=' || source[i + 2] === '!'))
        if (source[i + 1] === '<' && !look) i = source.indexOf('>', i) + 1
        else i += source[i + 1] === '<' ? 3 : 2
      }
      const body = alternation()
      i++
      return look ? { t: 'empty' } : body
    }
    if (c === '[') return { t: 'char', chars: charClass() }
    if (c === '.') return { t: 'char', chars: dot }
    if (c === '^' || c === '$') return { t: 'empty', anchor: true }
    if (c === '\\') {
      const chars = escaped()
      return chars ? { t: 'char', chars: fold(chars) } : { t: 'empty' }
    }
    return { t: 'char', chars: fold([[c.charCodeAt(0), c.charCodeAt(0)]]) }
  }
  const quantified = (): Node => {
    const a = atom()
    const q = /^(?:[*+?]|\{(\d+)(,(\d*))?\})/.exec(source.slice(i))
    if (!q) return a
    i += q[0].length
    if (source[i] === '?') i++
    const [min, max] =
      q[0] === '*'
        ? [0, Infinity]
        : q[0] === '+'
          ? [1, Infinity]
          : q[0] === '?'
            ? [0, 1]
            : [Number(q[1]), q[2] === undefined ? Number(q[1]) : q[3] ? Number(q[3]) : Infinity]
    return { t: 'rep', body: a, min, max }
  }
  const sequence = (): Node => {
    const items: Node[] = []
    while (i < source.length && source[i] !== '|' && source[i] !== ')') {
      // A plain group's items join the sequence: `(\s+)$` is `\s+$`.
      const q = quantified()
      if (q.t === 'seq') items.push(...q.items)
      else items.push(q)
    }
    return { t: 'seq', items }
  }
  const alternation = (): Node => {
    const options = [sequence()]
    while (source[i] === '|') {
      i++
      options.push(sequence())
    }
    return options.length === 1 ? options[0]! : { t: 'alt', options }
  }
  return alternation()
}
