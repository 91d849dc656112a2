// A string that a regular expression matches, built from the pattern's syntax without ever
// running it: patterns come from an untrusted document, and running one can take exponential
// time. Covers literals, classes, escapes, groups, alternation and quantifiers; lookarounds and
// back-references give up (`undefined`), and the caller falls back to a plain string.

const MAX_PATTERN = 1000
const MAX_REPEAT = 1000
const MAX_OUTPUT = 10_000

class GiveUp extends Error {}

interface Cursor {
  readonly src: string
  at: number
  steps: number
}

function fail(): never {
  throw new GiveUp()
}

function peek(c: Cursor): string | undefined {
  return c.src[c.at]
}

const classEscapes: Record<string, string> = { d: '1', w: 'a', s: ' ', D: 'a', W: '-', S: 'a' }
const controlEscapes: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  f: '\f',
  v: '\v',
  0: '\0',
}

function hexEscape(c: Cursor, digits: number): string {
  const hex = c.src.slice(c.at, c.at + digits)
  if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== digits) fail()
  c.at += digits
  return String.fromCharCode(Number.parseInt(hex, 16))
}

/** Reads an escape after `\`; `inClass` treats `\b` as backspace. Returns the char it stands for. */
function readEscape(c: Cursor, inClass: boolean): string {
  const ch = c.src[c.at++]
  if (ch === undefined) fail()
  if (Object.hasOwn(classEscapes, ch)) return classEscapes[ch]!
  if (Object.hasOwn(controlEscapes, ch)) return controlEscapes[ch]!
  if (ch === 'x') return hexEscape(c, 2)
  if (ch === 'u') {
    if (peek(c) !== '{') return hexEscape(c, 4)
    const end = c.src.indexOf('}', c.at)
    const hex = c.src.slice(c.at + 1, end)
    if (end < 0 || !/^[0-9A-Fa-f]{1,6}$/.test(hex)) fail()
    c.at = end + 1
    const code = Number.parseInt(hex, 16)
    if (code > 0x10ffff) fail()
    return String.fromCodePoint(code)
  }
  if (ch === 'p' || ch === 'P') {
    // A Unicode property: letters are the common case (\p{L}); other properties are guessed.
    if (peek(c) === '{') {
      const end = c.src.indexOf('}', c.at)
      if (end < 0) fail()
      const name = c.src.slice(c.at + 1, end)
      c.at = end + 1
      if (ch === 'P') return /^N/.test(name) ? 'a' : '1'
      return /^N/.test(name) ? '1' : 'a'
    }
    return 'a'
  }
  if (!inClass && (ch === 'b' || ch === 'B')) return ''
  if (inClass && ch === 'b') return '\b'
  if (/[1-9k]/.test(ch)) fail()
  if (ch === 'c') {
    const letter = c.src[c.at++]
    if (letter === undefined || !/[A-Za-z]/.test(letter)) fail()
    return String.fromCharCode(letter.charCodeAt(0) % 32)
  }
  return ch
}

const negatedCandidates = ['a', 'A', '1', '_', '-', 'z', 'Z', '9', ' ', '.', '~', 'é']

function inRanges(ch: string, ranges: Array<[number, number]>): boolean {
  const code = ch.codePointAt(0)!
  return ranges.some(([lo, hi]) => code >= lo && code <= hi)
}

const escapeRanges: Record<string, Array<[number, number]>> = {
  d: [[48, 57]],
  w: [
    [48, 57],
    [65, 90],
    [95, 95],
    [97, 122],
  ],
  s: [
    [9, 13],
    [32, 32],
  ],
}

/** Reads a character class after `[`; returns one character it accepts. */
function charClass(c: Cursor): string {
  const negated = peek(c) === '^'
  if (negated) c.at++
  const ranges: Array<[number, number]> = []
  let first: string | undefined
  let start = true
  while (peek(c) !== ']' || start) {
    start = false
    if (++c.steps > 100_000) fail()
    let ch = c.src[c.at++]
    if (ch === undefined) fail()
    if (ch === '\\') {
      const kind = c.src[c.at]
      if (kind !== undefined && Object.hasOwn(escapeRanges, kind)) {
        c.at++
        ranges.push(...escapeRanges[kind]!)
        first ??= classEscapes[kind]
        continue
      }
      if (kind !== undefined && 'DWS'.includes(kind)) {
        // Everything but a class: wide enough that a negated class rarely meets it.
        c.at++
        ranges.push([0, 0x10ffff])
        first ??= classEscapes[kind]
        continue
      }
      ch = readEscape(c, true)
    }
    let hi = ch
    if (peek(c) === '-' && c.src[c.at + 1] !== ']' && c.src[c.at + 1] !== undefined) {
      c.at++
      hi = c.src[c.at++]!
      if (hi === '\\') hi = readEscape(c, true)
    }
    const lo = ch.codePointAt(0) ?? 0
    const top = hi.codePointAt(0) ?? 0
    if (top < lo) fail()
    ranges.push([lo, top])
    first ??= ch
  }
  c.at++
  if (!negated) {
    if (first === undefined) fail()
    return first
  }
  return negatedCandidates.find((ch) => !inRanges(ch, ranges)) ?? fail()
}

/** Reads a quantifier, if one follows; returns how many times to repeat (its minimum). */
function quantifier(c: Cursor): number {
  const ch = peek(c)
  let count = 1
  if (ch === '*' || ch === '?') {
    c.at++
    count = 0
  } else if (ch === '+') {
    c.at++
  } else if (ch === '{') {
    const match = /^\{(\d{1,7})(,(\d{0,7}))?\}/.exec(c.src.slice(c.at, c.at + 20))
    if (match === null) return 1
    c.at += match[0].length
    count = Number(match[1])
    if (count > MAX_REPEAT) fail()
  } else {
    return 1
  }
  if (peek(c) === '?' || peek(c) === '+') c.at++
  return count
}

function atom(c: Cursor): string {
  const ch = c.src[c.at++]!
  if (ch === '(') {
    if (peek(c) === '?') {
      const kind = c.src.slice(c.at + 1, c.at + 3)
      if (kind.startsWith(':')) c.at += 2
      else if (kind.startsWith('<') && !/^<[=!]/.test(kind)) {
        const end = c.src.indexOf('>', c.at)
        if (end < 0) fail()
        c.at = end + 1
      } else fail()
    }
    const inner = alternation(c)
    if (c.src[c.at++] !== ')') fail()
    return inner
  }
  if (ch === '[') return charClass(c)
  if (ch === '.') return 'a'
  if (ch === '^' || ch === '$') return ''
  if (ch === '\\') return readEscape(c, false)
  if (ch === ')' || ch === '|') fail()
  if ((ch === '*' || ch === '+' || ch === '?') && c.at === 1) fail()
  return ch
}

function sequence(c: Cursor): string {
  let out = ''
  while (c.at < c.src.length && peek(c) !== '|' && peek(c) !== ')') {
    if (++c.steps > 100_000) fail()
    const piece = atom(c)
    const times = quantifier(c)
    out += piece.repeat(times)
    if (out.length > MAX_OUTPUT) fail()
  }
  return out
}

function alternation(c: Cursor): string {
  const first = sequence(c)
  while (peek(c) === '|') {
    c.at++
    sequence(c)
  }
  return first
}

/** A string matched by `pattern` (an ECMAScript regular expression), or `undefined`. */
export function patternSample(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN) return undefined
  const cursor: Cursor = { src: pattern, at: 0, steps: 0 }
  try {
    const out = alternation(cursor)
    return cursor.at === pattern.length ? out : undefined
  } catch (err) {
    if (err instanceof GiveUp) return undefined
    throw err
  }
}
