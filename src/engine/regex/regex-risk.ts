import { type Chars, overlaps } from './chars.js'
import { type Node, parse } from './regex-tree.js'

// A cheap, honest screen for patterns that backtrack badly: it reads the pattern's structure
// (no matching, no dependency) and knows four shapes. It misses what needs real automata
// analysis (recheck's job) and flags a few patterns that are in fact safe.

function nullable(n: Node): boolean {
  if (n.t === 'char') return false
  if (n.t === 'seq') return n.items.every(nullable)
  if (n.t === 'alt') return n.options.some(nullable)
  if (n.t === 'rep') return n.min === 0 || nullable(n.body)
  return true
}

/** Characters the node can read at all. */
function chars(n: Node): Chars {
  if (n.t === 'char') return n.chars
  if (n.t === 'seq') return n.items.flatMap(chars)
  if (n.t === 'alt') return n.options.flatMap(chars)
  if (n.t === 'rep') return chars(n.body)
  return []
}

/** Characters that can start (or, `end`, finish) a match of the node. */
function edge(n: Node, end: boolean): Chars {
  if (n.t === 'char') return n.chars
  if (n.t === 'alt') return n.options.flatMap((o) => edge(o, end))
  if (n.t === 'rep') return edge(n.body, end)
  if (n.t !== 'seq') return []
  const out: (readonly [number, number])[] = []
  for (const item of end ? [...n.items].reverse() : n.items) {
    out.push(...edge(item, end))
    if (!nullable(item)) break
  }
  return out
}

/** Unbounded repetitions that can read the first (or, `end`, the last) character of a match. */
function edgeReps(n: Node, end: boolean): Node[] {
  if (n.t === 'rep') return n.max === Infinity ? [n] : edgeReps(n.body, end)
  if (n.t === 'alt') return n.options.flatMap((o) => edgeReps(o, end))
  if (n.t !== 'seq') return []
  const out: Node[] = []
  for (const item of end ? [...n.items].reverse() : n.items) {
    out.push(...edgeReps(item, end))
    if (!nullable(item)) break
  }
  return out
}

/** The kind of blow-up the pattern risks on hostile input, or undefined when none is seen. */
export type RegexRisk = 'exponential' | 'polynomial'

function repRisk(n: Node & { t: 'rep' }): RegexRisk | undefined {
  const body = n.body
  // Two ways to read the same text in one iteration, repeated: (a|a)*, (\d|\d\d)+.
  if (body.t === 'alt') {
    const firsts = body.options
      .map((o) => (o.t === 'seq' ? o.items[0] : o))
      .map((o) => (o ? chars(o) : []))
    if (firsts.some((a, k) => firsts.some((b, m) => m > k && overlaps(a, b)))) return 'exponential'
  }
  const inner = body.t === 'seq' ? body.items : [body]
  const reps = inner.flatMap((x) => edgeReps(x, false).concat(edgeReps(x, true)))
  if (reps.length === 0 && !inner.some((x) => x.t === 'rep' && x.max === Infinity)) return undefined
  const repChars = reps.flatMap(chars)
  // A character that every iteration must read and no inner repetition can: it fixes where one
  // iteration ends, as `\.` does in (\d+\.)+.
  const separated = inner.some(
    (x) => !nullable(x) && x.t === 'char' && !overlaps(x.chars, repChars),
  )
  // (a+)+, (\w+\s?)*: an iteration can be split in many ways.
  if (!separated && reps.length > 0) return 'exponential'
  // (\w+-\w+)+: the end of one iteration and the start of the next read the same characters.
  const last = edgeReps(body, true).flatMap(chars)
  const first = edgeReps(body, false).flatMap(chars)
  return last.length > 0 && overlaps(last, first) ? 'exponential' : undefined
}

function seqRisk(items: readonly Node[], anchored: boolean): RegexRisk | undefined {
  for (let k = 0; k < items.length; k++) {
    const q = items[k]!
    if (q.t !== 'rep' || q.max !== Infinity) continue
    const qc = chars(q)
    // Unanchored, a leading repetition is retried from every start: `\s+$`, `.*x`.
    if (
      !anchored &&
      items.slice(0, k).every(nullable) &&
      items.slice(k + 1).some((x) => !nullable(x) || (x.t === 'empty' && x.anchor))
    )
      return 'polynomial'
    // Two repetitions where the first can end on what the second can start with, and nothing
    // between them that only the first cannot read: \d+\d+, .*=.*;.
    for (let m = k + 1; m < items.length; m++) {
      const r = items[m]!
      if (r.t === 'rep' && r.max === Infinity && overlaps(edge(q, true), edge(r, false)))
        return 'polynomial'
      if (!nullable(r) && !overlaps(edge(r, false), qc)) break
    }
  }
  return undefined
}

function walk(n: Node, anchored: boolean): RegexRisk | undefined {
  // Only a repetition without bound repeats an ambiguity without bound.
  if (n.t === 'rep') return (n.max === Infinity ? repRisk(n) : undefined) ?? walk(n.body, true)
  if (n.t === 'alt') {
    for (const o of n.options) {
      const r = walk(o, anchored)
      if (r) return r
    }
    return undefined
  }
  if (n.t !== 'seq') return undefined
  let found: RegexRisk | undefined
  for (const item of n.items) found ??= walk(item, true)
  const polynomial = seqRisk(
    n.items,
    anchored || (n.items[0]?.t === 'empty' && n.items[0].anchor === true),
  )
  return found ?? polynomial
}

/**
 * Screens a pattern for the shapes that make a backtracking engine slow on hostile input:
 * nested or overlapping repetition (exponential), adjacent repetitions over the same characters
 * and a leading repetition in an unanchored pattern (polynomial). A heuristic, not a proof.
 * @example regexRisk(/^(a+)+$/) // 'exponential'
 */
export function regexRisk(re: RegExp): RegexRisk | undefined {
  try {
    return walk(parse(re.source, re.flags), re.sticky)
  } catch {
    return undefined
  }
}
