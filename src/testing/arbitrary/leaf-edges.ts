import type { IRNode, IRString } from '../../engine/ir/types.js'
import { each, kinds, type Visitor, visit } from '../../engine/ir/visit.js'
import type { Caps } from './caps.js'
import { FORMAT_EDGES, hasFormat } from './format-edges.js'
import { irAccepts } from './ir-accepts.js'
import { type LeafRule, leafMissCandidates, leafRules, reshaped } from './leaf-misses.js'
import { rangeOf } from './number-arbitrary.js'
import { stringBounds } from './string-arbitrary.js'

/** The values on a leaf's edges: the valid ones at each bound, the invalid ones one step past. */
export interface LeafEdges {
  readonly valid: readonly unknown[]
  readonly invalid: readonly unknown[]
}

// Invalid values per leaf at least: past those chosen for each rule, the first others fill up to this.
const INVALID = 6
// Enum and literal members past this many are not each sent.
const MEMBERS = 50

// Valid format edges (a leap day, the nil UUID) sent per leaf past this many are not sent.
const FORMATS = 3

/**
 * A valid string's edges: at each length bound (a sample resized, the first way the node accepts,
 * and one of `a`s), a few values on its format's edges, and the sample itself.
 */
function stringEdges(node: IRString, sample: unknown, e: Edge) {
  const s = typeof sample === 'string' ? sample : ''
  const { min, max } = stringBounds(node)
  const lengths: number[] = []
  if (min > 0) lengths.push(min)
  if (max !== undefined) {
    if (max > e.caps.string)
      e.note(
        `longest string sent is ${e.caps.string} characters (the schema allows ${max}): ${e.caps.stringBy} refuses a longer one first`,
      )
    lengths.push(Math.min(max, e.caps.string))
  }
  const units = node.lengthUnit === 'utf16' ? s.split('') : Array.from(s)
  const sized = lengths.flatMap((n) => {
    const ways = reshaped(units, n)
    return [ways.find((x) => e.accepts?.(x) !== false) ?? ways[0], 'a'.repeat(n)]
  })
  const formats = hasFormat(node)
    ? FORMAT_EDGES.map(([valid]) => valid)
        .filter((x) => e.accepts?.(x) === true)
        .slice(0, FORMATS)
    : []
  return [...sized, ...formats, s]
}

const uniq = (xs: readonly unknown[]) =>
  xs.filter((x, i) => xs.findIndex((y) => Object.is(x, y)) === i)

/** Valid numbers at a number node's bounds (exclusive ones one step inside) and multiples. */
function numberEdges(node: Extract<IRNode, { kind: 'number' }>): number[] {
  const r = rangeOf(node.checks)
  const out: number[] = []
  const inside = (x: number, up: boolean) =>
    node.integer
      ? x + (up ? 1 : -1)
      : up
        ? x + Math.max(Math.abs(x), 1) * 1e-9
        : x - Math.max(Math.abs(x), 1) * 1e-9
  if (r.min !== undefined) out.push(r.minExcluded ? inside(r.min, true) : r.min)
  if (r.max !== undefined) out.push(r.maxExcluded ? inside(r.max, false) : r.max)
  for (const step of r.steps) {
    if (!(step > 0)) continue
    if (r.min !== undefined)
      out.push(Math.ceil(r.min / step) * step, (Math.floor(r.min / step) + 1) * step)
    if (r.max !== undefined)
      out.push(Math.floor(r.max / step) * step, (Math.ceil(r.max / step) - 1) * step)
    out.push(step)
  }
  return out
}

type Edge = {
  readonly sample: unknown
  readonly caps: Caps
  readonly note: (s: string) => void
  readonly accepts: ((x: unknown) => boolean) | undefined
}
const none = (): unknown[] => []

// The valid values on a leaf's edges; a node of another kind has none of its own.
const validEdges: Visitor<unknown[], Edge> = {
  string: (n, e) => stringEdges(n, e.sample, e),
  number: (n) => numberEdges(n),
  ...each(kinds('enum literal'), (n, e) => {
    if (n.values.length > MEMBERS) e.note(`the first ${MEMBERS} of ${n.values.length} members sent`)
    return n.values.slice(0, MEMBERS)
  }),
  boolean: () => [true, false],
  date: (n) => {
    const r = rangeOf(n.checks)
    return [r.min, r.max].filter((x) => x !== undefined).map((x) => new Date(x))
  },
  ...each(
    kinds(
      'bigint null nan unknown undefined never object array optional nullable readonly default native union intersection pipe recursive record tuple set ref',
    ),
    none,
  ),
}

/**
 * The misses to send out of `rejected` (in their order): for each rule of the leaf the one that
 * breaks it and the fewest other rules (it alone when one does: a value inside the bounds off a
 * step, a fraction inside an integer's bounds, a string of a valid length that a pattern refuses),
 * and for a bound or a length the nearest one past it too; then the first others, up to INVALID.
 */
function chosenMisses(rejected: readonly unknown[], rules: readonly LeafRule[]): unknown[] {
  const breaks = rejected.map((x) => rules.filter((r) => !r.accepts(x)))
  const picked = new Set<number>()
  for (const rule of rules) {
    const hits = rejected.flatMap((_, i) => (breaks[i]?.includes(rule) ? [i] : []))
    const [nearest] = hits
    if (nearest === undefined) continue
    const fewest = (i: number) => breaks[i]?.length ?? 0
    picked.add(hits.reduce((a, b) => (fewest(b) < fewest(a) ? b : a)))
    if (rule.bound) picked.add(nearest)
  }
  for (let i = 0; i < rejected.length && picked.size < INVALID; i++) picked.add(i)
  return rejected.filter((_, i) => picked.has(i))
}

/**
 * A leaf's edges, each checked by the node's compiled checks: valid values at each length and
 * numeric bound (capped at the part's caps, with a note), on a format's edges, each enum member,
 * both booleans; and near misses of leaf-misses.ts the node rejects: for each rule of the leaf
 * one that breaks it alone where one can (and one step past each bound), then the first others
 * (a format a step off, a value outside the enum, another type) up to six in all.
 * @param sample a valid value of the node, resized for the length edges
 */
export function leafEdges(
  node: IRNode,
  sample: unknown,
  caps: Caps,
  note: (s: string) => void,
): LeafEdges {
  const accepts = irAccepts(node)
  const rules = leafRules(node)
  const valid = uniq(visit(node, validEdges, { sample, caps, note, accepts })).filter(
    (x) => accepts === undefined || accepts(x) || onDecimalStep(node, rules, x),
  )
  if (accepts === undefined) return { valid, invalid: [] }
  // The valid strings at the bounds are samples too: one step past them keeps their shape.
  const samples = [sample, ...valid.filter((x) => typeof x === 'string' && x !== sample)]
  const candidates = uniq(
    leafMissCandidates(node, sample === undefined ? [] : samples, caps.string),
  )
  const rejected = candidates.filter((x) => x !== undefined && !accepts(x))
  return { valid, invalid: chosenMisses(rejected, rules) }
}

/**
 * A number the compiled check refuses only for a decimal step it holds exactly (`0.3 / 0.1` is not
 * an integer), within the float error the schema's library allows: kept as a valid edge, and the
 * library judges it when the request is made.
 */
function onDecimalStep(node: IRNode, rules: readonly LeafRule[], x: unknown): boolean {
  if (node.kind !== 'number' || typeof x !== 'number') return false
  const steps = node.checks.flatMap((c) => (c.kind === 'multiple_of' ? [c.value] : []))
  const near = (step: number) => Math.abs(x / step - Math.round(x / step)) < 1e-9
  return (
    steps.length > 0 &&
    steps.every(near) &&
    rules.every((r) => r.name === 'multiple_of' || r.accepts(x))
  )
}
