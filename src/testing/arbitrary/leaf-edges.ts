import type { IRNode, IRString } from '../../engine/ir/types.js'
import { each, kinds, type Visitor, visit } from '../../engine/ir/visit.js'
import type { Caps } from './caps.js'
import { irAccepts } from './ir-accepts.js'
import { leafMissCandidates } from './leaf-misses.js'
import { rangeOf } from './number-arbitrary.js'
import { stringBounds } from './string-arbitrary.js'

/** The values on a leaf's edges: the valid ones at each bound, the invalid ones one step past. */
export interface LeafEdges {
  readonly valid: readonly unknown[]
  readonly invalid: readonly unknown[]
}

// Invalid values per leaf: the near misses one step past each bound come first in leaf-misses.ts.
const INVALID = 6
// Enum and literal members past this many are not each sent.
const MEMBERS = 50

/** A valid string resized to `length` characters of the node's unit, keeping its shape. */
function resized(node: IRString, s: string, length: number): string {
  const chars = node.lengthUnit === 'utf16' ? s.split('') : Array.from(s)
  if (length <= chars.length) return chars.slice(0, length).join('')
  const c = chars[1] ?? chars[0] ?? 'a'
  return [chars[0] ?? '', c.repeat(length - chars.length), ...chars.slice(1)].join('')
}

function stringEdges(node: IRString, sample: unknown, caps: Caps, note: (s: string) => void) {
  const s = typeof sample === 'string' ? sample : ''
  const { min, max } = stringBounds(node)
  const lengths: number[] = []
  if (min > 0) lengths.push(min)
  if (max !== undefined) {
    if (max > caps.string)
      note(
        `longest string sent is ${caps.string} characters (the schema allows ${max}): ${caps.stringBy} refuses a longer one first`,
      )
    lengths.push(Math.min(max, caps.string))
  }
  return lengths.flatMap((n) => [resized(node, s, n), 'a'.repeat(n)]).concat(s)
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

type Edge = { readonly sample: unknown; readonly caps: Caps; readonly note: (s: string) => void }
const none = (): unknown[] => []

// The valid values on a leaf's edges; a node of another kind has none of its own.
const validEdges: Visitor<unknown[], Edge> = {
  string: (n, e) => stringEdges(n, e.sample, e.caps, e.note),
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

const validOf = (node: IRNode, sample: unknown, caps: Caps, note: (s: string) => void) =>
  visit(node, validEdges, { sample, caps, note })

/**
 * A leaf's edges, each checked by the node's compiled checks: valid values at each length and
 * numeric bound (capped at the part's caps, with a note), each enum member, both booleans; and
 * the first near misses of leaf-misses.ts the node rejects (one past each bound, a format a step
 * off, a value outside the enum, another type).
 * @param sample a valid value of the node, resized for the length edges
 */
export function leafEdges(
  node: IRNode,
  sample: unknown,
  caps: Caps,
  note: (s: string) => void,
): LeafEdges {
  const accepts = irAccepts(node)
  const valid = uniq(validOf(node, sample, caps, note)).filter(
    (x) => accepts === undefined || accepts(x),
  )
  const candidates = uniq(
    leafMissCandidates(node, sample === undefined ? [] : [sample], caps.string),
  )
  const invalid = candidates
    .filter((x) => x !== undefined && accepts !== undefined && !accepts(x))
    .slice(0, INVALID)
  return { valid, invalid }
}
