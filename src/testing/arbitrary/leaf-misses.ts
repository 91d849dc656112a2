import type { IRBound, IRNode, IRString } from '../../engine/ir/types.js'
import { each, kinds, type NodeOf, type Visitor, visit } from '../../engine/ir/visit.js'
import { fitsString } from './caps.js'
import { FORMAT_EDGES, hasFormat } from './format-edges.js'
import { irAccepts } from './ir-accepts.js'
import { rangeOf } from './number-arbitrary.js'
import { stringBounds } from './string-arbitrary.js'

/** Values of other types, each a near miss for a leaf of any one type. */
const otherTypes: readonly unknown[] = [42, 'not-valid', true, null, [], {}]

/** The characters of `s` in the node's length unit. */
const unitsOf = (node: IRString, s: string) =>
  node.lengthUnit === 'utf16' ? s.split('') : Array.from(s)

/**
 * `s` (in length units `u`) grown or cut to `length` units, a few ways: a character repeated after
 * its first, before its first and before its last one (or its head, its first with its tail, and
 * its tail), so that one of them keeps a pattern's or a format's shape (an email grows in its
 * local part, a slug anywhere).
 */
export function reshaped(u: readonly string[], length: number): string[] {
  const n = u.length
  if (length <= 0) return ['']
  if (n === 0) return ['a'.repeat(length)]
  if (length < n)
    return [
      u.slice(0, length).join(''),
      [u[0], ...u.slice(n - length + 1)].join(''),
      u.slice(n - length).join(''),
    ]
  const more = length - n
  const [first = 'a', second = first] = u
  const last = u[n - 1] ?? first
  const beforeLast = u[n - 2] ?? last
  return [
    [first, second.repeat(more), ...u.slice(1)].join(''),
    first.repeat(more) + u.join(''),
    [...u.slice(0, -1), beforeLast.repeat(more), last].join(''),
  ]
}

/**
 * Too short and too long versions of valid samples, in the node's own length unit; none of more
 * than `cap` code points (a guard refuses such a string before the schema sees it, and building
 * one past a huge bound would take the heap).
 */
function lengthMisses(node: IRString, samples: readonly string[], cap: number): string[] {
  const { min, max } = stringBounds(node)
  const out: string[] = []
  for (const sample of samples) {
    const u = unitsOf(node, sample)
    // One more of a character already there keeps a pattern's shape in most cases.
    const longer = max === undefined ? 0 : Math.max(max + 1, u.length + 1)
    if (max !== undefined && longer <= cap) out.push(...reshaped(u, longer))
    if (min > 0 && u.length >= min) out.push(...reshaped(u, min - 1))
  }
  if (max !== undefined) {
    if (max + 1 <= cap) out.push('a'.repeat(max + 1))
    // Length units: astral characters are 2 UTF-16 units and 1 code point.
    const astral = node.lengthUnit === 'utf16' ? Math.ceil((max + 1) / 2) : max + 1
    if (astral <= cap) out.push('😀'.repeat(astral))
  }
  if (min > 0 && min - 1 <= cap)
    out.push('a'.repeat(min - 1), '😀'.repeat(Math.max(0, Math.floor((min - 1) / 2))))
  return out.filter((s) => fitsString(s, cap))
}

/** A format's value one step off each of its edges the node accepts (a day past a leap day). */
function formatMisses(node: IRString): string[] {
  const accepts = hasFormat(node) ? irAccepts(node) : undefined
  if (accepts === undefined) return []
  return FORMAT_EDGES.filter(([valid]) => accepts(valid)).map(([, off]) => off)
}

/**
 * Numbers that break one rule of a number node each, the others kept where they can be: one step
 * past each bound (and a multiple of each step past it), off each step inside the bounds, a
 * fraction inside the bounds of an integer.
 */
function numberMisses(node: NodeOf<'number'>): number[] {
  const r = rangeOf(node.checks)
  const { min, max } = r
  const steps = r.steps.filter((s) => s > 0 && Number.isFinite(s))
  const eps = (x: number) => Math.max(Math.abs(x), 1) * 1e-9
  const below =
    min === undefined
      ? []
      : [
          r.minExcluded ? min : node.integer ? min - 1 : min - eps(min),
          min - 1,
          min - 0.5,
          min - eps(min),
          ...steps.flatMap((s) => [Math.floor(min / s) * s, (Math.ceil(min / s) - 1) * s]),
        ]
  const above =
    max === undefined
      ? []
      : [
          r.maxExcluded ? max : node.integer ? max + 1 : max + eps(max),
          max + 1,
          max + 0.5,
          max + eps(max),
          ...steps.flatMap((s) => [Math.ceil(max / s) * s, (Math.floor(max / s) + 1) * s]),
        ]
  // The first multiple inside the bounds, and values beside it that are none.
  const offStep = steps.flatMap((s) => {
    const m =
      min !== undefined ? Math.ceil(min / s) * s : max !== undefined ? Math.floor(max / s) * s : s
    return [m + s / 2, m + 1, m - 1, m - s / 2, s * 1.5, s * 2.5 + 0.001]
  })
  const from = min ?? (max === undefined ? 0 : max - 1)
  const fractions = node.integer
    ? [Math.floor(from) + 0.5, (max ?? from + 1) - 0.5, 0.5, 1.5, -2.5]
    : []
  return [...below, ...above, ...offStep, ...fractions]
}

const enumMisses = () => ['not_an_option', 987654321, ...otherTypes]

// The near misses of each leaf kind; any other kind gets values of other types only.
const missesByKind: Visitor<unknown[], { samples: readonly unknown[]; cap: number }> = {
  string: (node, { samples, cap }) => {
    const strings = samples.filter((s): s is string => typeof s === 'string' && s.length <= cap)
    const derived = strings.flatMap((s) => [
      `${s}!`,
      ` ${s}`,
      s.toUpperCase(),
      s.slice(1),
      `${s}\u0000`,
    ])
    return [
      ...lengthMisses(node, strings, cap),
      ...formatMisses(node),
      ...derived.filter((s) => fitsString(s, cap)),
      '',
      ' ',
      'not valid',
      ...otherTypes,
    ]
  },
  number: (node) => [
    ...numberMisses(node),
    Number.NaN,
    Number.POSITIVE_INFINITY,
    'abc',
    '',
    ...otherTypes,
  ],
  bigint: (node) => {
    const r = rangeOf(node.checks)
    return [
      ...(r.min === undefined ? [] : [r.min - 1n, r.min]),
      ...(r.max === undefined ? [] : [r.max + 1n, r.max]),
      1.5,
      'abc',
      ...otherTypes,
    ]
  },
  date: (node) => {
    const r = rangeOf(node.checks)
    return [
      ...(r.min === undefined ? [] : [new Date(r.min - 1)]),
      ...(r.max === undefined ? [] : [new Date(r.max + 1)]),
      new Date(Number.NaN),
      'not a date',
      ...otherTypes,
    ]
  },
  boolean: () => ['yes', 'true', 1, 0, ...otherTypes],
  literal: enumMisses,
  enum: enumMisses,
  null: () => [0, 'null', false, undefined],
  nan: () => [0, 'NaN', null],
  undefined: () => [null, 0, ''],
  never: () => [0, 'x', null],
  ...each(
    kinds(
      'unknown array object record tuple set union intersection optional nullable readonly default pipe recursive ref native',
    ),
    () => otherTypes.slice(),
  ),
}

/**
 * Near misses for a leaf node, computed once when the arbitrary is built: values of another
 * type, lengths and bounds one step past each limit, strings a pattern refuses. The caller keeps
 * the ones the node rejects.
 * @param samples a few valid values of the node, to derive misses that break one rule only
 * @param cap the longest string to return, in code points
 */
export function leafMissCandidates(
  node: IRNode,
  samples: readonly unknown[],
  cap: number,
): unknown[] {
  return visit(node, missesByKind, { samples, cap })
}

/**
 * One rule of a leaf (a bound, a step, integer-ness, a length, a pattern, a format), with what
 * the leaf accepts when that rule is its only one (its type, coercion and transforms kept).
 */
export interface LeafRule {
  readonly name: string
  /** A bound or a length: its nearest miss is kept as well as one that breaks it alone. */
  readonly bound: boolean
  readonly accepts: (x: unknown) => boolean
}

type Only = readonly [name: string, bound: boolean, node: IRNode]

/** A number, bigint or date node's bounds and steps, each as the only check of a copy of it. */
function boundRules<V extends number | bigint>(
  node: IRNode & { readonly checks: readonly IRBound<V>[] },
  patch: object = {},
): Only[] {
  const r = rangeOf(node.checks)
  const only = (check: IRBound<V>): IRNode => ({ ...node, ...patch, checks: [check] }) as IRNode
  return [
    ...(r.min === undefined
      ? []
      : [['min', true, only({ kind: r.minExcluded ? 'gt' : 'gte', value: r.min })] as const]),
    ...(r.max === undefined
      ? []
      : [['max', true, only({ kind: r.maxExcluded ? 'lt' : 'lte', value: r.max })] as const]),
    ...r.steps.map(
      (value) => ['multiple_of', false, only({ kind: 'multiple_of', value })] as const,
    ),
  ]
}

const lengthKinds = new Set(['min_length', 'max_length', 'length'])

// The rules of each leaf kind; an enum's, a literal's and a boolean's is its type.
const rulesByKind: Visitor<Only[], undefined> = {
  string: (n) =>
    n.checks.flatMap((c, i): Only[] => {
      if (c.kind === 'transform') return []
      const checks = n.checks.filter((k, j) => j === i || k.kind === 'transform')
      const name = c.kind === 'pattern' || c.kind === 'format' ? `${c.kind} ${c.format}` : c.kind
      return [[name, lengthKinds.has(c.kind), { ...n, checks }]]
    }),
  number: (n) => [
    ...boundRules(n, { integer: false }),
    ...(n.integer ? [['integer', false, { ...n, checks: [] }] as const] : []),
  ],
  bigint: (n) => boundRules(n),
  date: (n) => boundRules(n),
  ...each(
    kinds(
      'boolean literal enum null nan unknown undefined never object array optional nullable readonly default native union intersection pipe recursive record tuple set ref',
    ),
    (): Only[] => [],
  ),
}

const rulesCache = new WeakMap<IRNode, readonly LeafRule[]>()

/** The rules of a leaf node that the compiled path can check one at a time (none for the others). */
export function leafRules(node: IRNode): readonly LeafRule[] {
  const hit = rulesCache.get(node)
  if (hit !== undefined) return hit
  const rules = visit(node, rulesByKind, undefined).flatMap(([name, bound, only]) => {
    const accepts = irAccepts(only)
    return accepts === undefined ? [] : [{ name, bound, accepts }]
  })
  rulesCache.set(node, rules)
  return rules
}

/** This module's IR tables, for the test that each has a handler for every kind. */
export const tables = { missesByKind, rulesByKind }
