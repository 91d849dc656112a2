import { type Node, parse, RegexSyntaxError } from '../../engine/regex/regex-tree.js'

// A string that a regular expression matches, built from the pattern's tree without ever running
// it: patterns come from an untrusted document, and running one can take exponential time. Each
// position gives its sample character, a repetition its least count, an alternation its first
// option; a lookaround, a back-reference or a position with no known character gives up
// (`undefined`), and the caller falls back to a plain string.

const MAX_PATTERN = 1000
const MAX_REPEAT = 1000
const MAX_OUTPUT = 10_000

class GiveUp extends Error {}

function give(): never {
  throw new GiveUp()
}

function sample(n: Node): string {
  if (n.t === 'char') return n.sample === undefined ? give() : String.fromCodePoint(n.sample)
  if (n.t === 'alt') return sample(n.options[0]!)
  if (n.t === 'rep') {
    if (n.min > MAX_REPEAT) give()
    const piece = n.min === 0 ? '' : sample(n.body)
    return piece.length * n.min > MAX_OUTPUT ? give() : piece.repeat(n.min)
  }
  if (n.t === 'seq') {
    let out = ''
    for (const item of n.items) {
      out += sample(item)
      if (out.length > MAX_OUTPUT) give()
    }
    return out
  }
  return n.t === 'empty' ? '' : give()
}

/**
 * A string matched by `pattern` (an ECMAScript regular expression, read as JSON Schema reads it:
 * with the `u` flag), or `undefined`.
 * @example patternSample('^[a-z]{3}-\\d{2,4}$') // 'aaa-11'
 */
export function patternSample(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN) return undefined
  try {
    return sample(parse(pattern, 'u'))
  } catch (err) {
    if (err instanceof GiveUp || err instanceof RegexSyntaxError) return undefined
    throw err
  }
}
