import type { IRNode, IRString } from '../../engine/ir/types.js'
import { each, kinds, type Visitor, visit } from '../../engine/ir/visit.js'
import { fitsString } from './caps.js'
import { rangeOf } from './number-arbitrary.js'
import { stringBounds } from './string-arbitrary.js'

/** Values of other types, each a near miss for a leaf of any one type. */
const otherTypes: readonly unknown[] = [42, 'not-valid', true, null, [], {}]

const repeatAt = (s: string, n: number) => {
  const chars = Array.from(s)
  const c = chars[1] ?? chars[0] ?? 'a'
  return [chars[0] ?? '', c.repeat(n), ...chars.slice(1)].join('')
}

/**
 * Too short and too long versions of valid samples, in the node's own length unit; none of more
 * than `cap` code points (a guard refuses such a string before the schema sees it, and building
 * one past a huge bound would take the heap).
 */
function lengthMisses(node: IRString, samples: readonly string[], cap: number): string[] {
  const { min, max } = stringBounds(node)
  const unitLength = (s: string) => (node.lengthUnit === 'utf16' ? s.length : Array.from(s).length)
  const out: string[] = []
  for (const sample of samples) {
    const length = unitLength(sample)
    // One more of a character already there keeps a pattern's shape in most cases.
    const more = max === undefined ? 0 : Math.max(1, max + 1 - length)
    if (max !== undefined && sample.length + more <= cap) out.push(repeatAt(sample, more))
    if (min > 0)
      out.push(
        Array.from(sample)
          .slice(0, min - 1)
          .join(''),
      )
  }
  if (max !== undefined) {
    if (max + 1 <= cap) out.push('a'.repeat(max + 1))
    // Length units: astral characters are 2 UTF-16 units and 1 code point.
    const astral = node.lengthUnit === 'utf16' ? Math.ceil((max + 1) / 2) : max + 1
    if (astral <= cap) out.push('😀'.repeat(astral))
  }
  if (min > 0 && min - 1 <= cap)
    out.push('a'.repeat(min - 1), '😀'.repeat(Math.max(0, Math.floor((min - 1) / 2))))
  return out
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
      ...derived.filter((s) => fitsString(s, cap)),
      '',
      ' ',
      'not valid',
      ...otherTypes,
    ]
  },
  number: (node) => {
    const r = rangeOf(node.checks)
    const step = r.steps[0]
    return [
      ...(r.min === undefined
        ? []
        : [r.min - 1, r.min - 0.5, r.minExcluded ? r.min : r.min - 1e-9]),
      ...(r.max === undefined
        ? []
        : [r.max + 1, r.max + 0.5, r.maxExcluded ? r.max : r.max + 1e-9]),
      ...(step === undefined ? [] : [step * 1.5, step * 2.5 + 0.001]),
      ...(node.integer ? [0.5, 1.5, -2.5] : []),
      Number.NaN,
      Number.POSITIVE_INFINITY,
      'abc',
      '',
      ...otherTypes,
    ]
  },
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

/** This module's IR tables, for the test that each has a handler for every kind. */
export const tables = { missesByKind }
