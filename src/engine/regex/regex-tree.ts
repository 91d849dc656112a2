// The structure of a regular expression, read from its source without running it (a pattern may
// come from an untrusted document), in one pass: which characters each position reads, with one
// it surely reads, and the repetitions, alternatives and zero-width parts around them. Enough for
// the regex-risk screen and for writing a string the pattern matches; never to match.

import { type Chars, caseless, classChars, commonIn, invert, lineEnds, MAX } from './chars.js'

/**
 * A pattern's tree. A `char` position reads one of `chars`, among them `sample` (the character
 * the pattern names first there, else a common one of its set; undefined when none is known).
 * `empty` is an anchor (`^`, `$`) or a word boundary; `look` a lookaround (zero width, what it
 * reads not kept); `backref` the text an earlier group matched.
 */
export type Node =
  | { readonly t: 'char'; readonly chars: Chars; readonly sample: number | undefined }
  | { readonly t: 'seq'; readonly items: readonly Node[] }
  | { readonly t: 'alt'; readonly options: readonly Node[] }
  | { readonly t: 'rep'; readonly body: Node; readonly min: number; readonly max: number }
  | { readonly t: 'empty'; readonly anchor?: boolean }
  | { readonly t: 'look' }
  | { readonly t: 'backref' }

/** A pattern the parser cannot read: a syntax error, or a form it does not know. */
export class RegexSyntaxError extends Error {}

const controlEscapes = new Map<string, number>([
  ['n', 10],
  ['r', 13],
  ['t', 9],
  ['f', 12],
  ['v', 11],
  ['0', 0],
])

// One character position: a single character, or a set with a common character as its sample.
interface Atom {
  readonly chars: Chars
  readonly sample: number | undefined
  readonly single: boolean
}
const one = (code: number): Atom => ({
  chars: [[Math.min(code, MAX), Math.min(code, MAX)]],
  sample: code,
  single: true,
})
const set = (chars: Chars, sample = commonIn(chars)): Atom => ({
  chars,
  sample,
  single: false,
})
// A Unicode property: any character as far as the screen goes; a digit as the sample of a
// number property (`\p{N}`, `\p{Nd}`), a letter of any other, the other way round when negated.
const property = (name: string, negated: boolean): Atom =>
  set([[0, MAX]], name.startsWith('N') !== negated ? 49 : 97)

const quantifier = /[*+?]|\{(\d+)(?:(,)(\d*))?\}/y

/**
 * Parses a pattern with its flags (`u` or `v`: the Unicode forms `\u{…}` and `\p{…}`, and no
 * legacy reading of an incomplete escape) into the tree above.
 * @throws RegexSyntaxError on what it cannot read (the RegExp constructor rejects most of it).
 * @example parse('^a+$', '') // { t: 'seq', items: [anchor, { t: 'rep', … }, anchor] }
 */
export function parse(source: string, flags: string): Node {
  let i = 0
  const unicode = flags.includes('u') || flags.includes('v')
  let ignoreCase = flags.includes('i')
  const dot = set(flags.includes('s') ? [[0, MAX]] : invert(lineEnds))
  const fail = (what: string): never => {
    throw new RegexSyntaxError(`${what} at ${i}`)
  }
  const hex = (digits: number): number | undefined => {
    const text = source.slice(i, i + digits)
    if (text.length !== digits || !/^[0-9A-Fa-f]+$/.test(text)) return undefined
    i += digits
    return Number.parseInt(text, 16)
  }
  // Reads up to `close`, past it; the text between.
  const upTo = (close: string): string => {
    const end = source.indexOf(close, i)
    if (end < 0) fail(`no ${close}`)
    const text = source.slice(i, end)
    i = end + 1
    return text
  }
  // An escape after `\`: a character, a set, or (outside a class) an assertion or back-reference.
  const escaped = (inClass: boolean): Atom | Extract<Node, { t: 'empty' | 'backref' }> => {
    if (i >= source.length) fail('a lone \\')
    const c = source[i++]!
    const known = classChars.get(c.toLowerCase())
    if (known) return c === c.toLowerCase() ? set(known) : set(invert(known))
    const control = controlEscapes.get(c)
    if (control !== undefined) return one(control)
    if (/[0-9]/.test(c)) {
      if (!inClass) {
        while (/[0-9]/.test(source[i] ?? '')) i++
        return { t: 'backref' }
      }
      if (unicode) fail('a back-reference in a class')
      // A legacy octal escape: up to three octal digits.
      const octal = /^[0-7]{1,3}/.exec(source.slice(i - 1, i + 2))
      if (!octal) return one(c.charCodeAt(0))
      i += octal[0].length - 1
      return one(Number.parseInt(octal[0], 8))
    }
    if (c === 'b') return inClass ? one(8) : { t: 'empty' }
    if (c === 'B' && !inClass) return { t: 'empty' }
    if (c === 'k' && unicode && inClass) fail('\\k in a class')
    if (c === 'k' && !inClass) {
      const end = source[i] === '<' ? source.indexOf('>', i) : -1
      if (end > 0) {
        i = end + 1
        return { t: 'backref' }
      }
      if (unicode) fail('\\k without a group name')
    }
    if ((c === 'p' || c === 'P') && unicode) {
      if (source[i++] !== '{') fail('\\p without {')
      return property(upTo('}'), c === 'P')
    }
    if (c === 'u' && unicode && source[i] === '{') {
      i++
      const text = upTo('}')
      const code = /^[0-9A-Fa-f]{1,6}$/.test(text) ? Number.parseInt(text, 16) : Infinity
      return code <= 0x10ffff ? one(code) : fail('a code point out of range')
    }
    if (c === 'x' || c === 'u') {
      const code = hex(c === 'x' ? 2 : 4)
      if (code !== undefined) return one(code)
      return unicode ? fail(`an incomplete \\${c}`) : one(c.charCodeAt(0))
    }
    if (c === 'c') {
      const letter = source[i] ?? ''
      if (/[A-Za-z]/.test(letter)) {
        i++
        return one(letter.charCodeAt(0) % 32)
      }
      if (unicode) fail('\\c without a letter')
      // Legacy: the backslash is itself, and the `c` is read next.
      i--
      return one(92)
    }
    return one(c.charCodeAt(0))
  }
  const fold = (a: Atom): Atom => (ignoreCase ? { ...a, chars: caseless(a.chars) } : a)
  const classItem = (): Atom => {
    if (source[i] !== '\\') return one(source.charCodeAt(i++))
    i++
    return escaped(true) as Atom
  }
  const charClass = (): Atom => {
    const negated = source[i] === '^'
    if (negated) i++
    const items: Atom[] = []
    while (source[i] !== ']') {
      if (i >= source.length) fail('no ]')
      const lo = classItem()
      if (!lo.single || source[i] !== '-' || source[i + 1] === ']' || i + 1 >= source.length) {
        items.push(lo)
        continue
      }
      i++
      const hi = classItem()
      if (!hi.single) {
        if (unicode) fail('a set as the end of a range')
        items.push(lo, one(45), hi)
        continue
      }
      if (hi.sample! < lo.sample!) fail('a range out of order')
      items.push({ chars: [[lo.chars[0]![0], hi.chars[0]![1]]], sample: lo.sample, single: false })
    }
    i++
    const chars = items.flatMap((a) => fold(a).chars)
    return negated ? set(invert(chars)) : set(chars, items[0]?.sample)
  }
  const group = (): Node => {
    if (source[i] !== '?') return alternation()
    i++
    const c = source[i++]
    const look = c === '=' || c === '!' || (c === '<' && (source[i] === '=' || source[i] === '!'))
    if (look) {
      if (c === '<') i++
      alternation()
      return { t: 'look' }
    }
    if (c === ':') return alternation()
    if (c === '<') {
      upTo('>')
      return alternation()
    }
    // Modifiers, `(?i:…)`, `(?-i:…)`: only case matters to what a position reads.
    const modifiers = /^([ims]*)(?:-([ims]*))?:/.exec(source.slice(i - 1, i + 8))
    if (!modifiers) return fail('an unknown group')
    i += modifiers[0].length - 1
    const outer = ignoreCase
    if (modifiers[1]!.includes('i')) ignoreCase = true
    if (modifiers[2]?.includes('i')) ignoreCase = false
    const body = alternation()
    ignoreCase = outer
    return body
  }
  const atom = (): Node => {
    const c = source[i++]!
    if (c === '(') {
      const body = group()
      if (source[i++] !== ')') fail('no )')
      return body
    }
    if (c === '^' || c === '$') return { t: 'empty', anchor: true }
    // A class is folded item by item, before it is inverted.
    const a =
      c === '[' ? charClass() : c === '.' ? dot : c === '\\' ? escaped(false) : one(c.charCodeAt(0))
    if (!('chars' in a)) return a
    const { chars, sample } = c === '[' || c === '.' ? a : fold(a)
    return { t: 'char', chars, sample }
  }
  const quantified = (): Node => {
    const a = atom()
    quantifier.lastIndex = i
    const q = quantifier.exec(source)
    if (!q) return a
    i = quantifier.lastIndex
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
      if ('*+?'.includes(source[i]!)) fail('nothing to repeat')
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
  const tree = alternation()
  if (i < source.length) fail('an unmatched )')
  return tree
}
