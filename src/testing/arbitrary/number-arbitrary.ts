import type { Arbitrary } from 'fast-check'
import type { IRBigInt, IRBound, IRDate, IRNumber } from '../../engine/ir/types.js'
import type { FC } from '../load-fast-check.js'
import { spread } from './reach.js'

/** The tightest lower and upper bounds of a list of bounds (exclusive ones flagged). */
export interface Range<V> {
  readonly min?: V
  readonly max?: V
  readonly minExcluded: boolean
  readonly maxExcluded: boolean
  readonly steps: readonly V[]
}

/** Merges a node's bounds into one range and its `multiple_of` steps. */
export function rangeOf<V extends number | bigint>(checks: readonly IRBound<V>[]): Range<V> {
  let min: V | undefined
  let max: V | undefined
  let minExcluded = false
  let maxExcluded = false
  const steps: V[] = []
  for (const b of checks) {
    if (b.kind === 'multiple_of') steps.push(b.value)
    else if (b.kind === 'gte' || b.kind === 'gt') {
      if (min === undefined || b.value > min || (b.value === min && b.kind === 'gt')) {
        min = b.value
        minExcluded = b.kind === 'gt'
      }
    } else if (max === undefined || b.value < max || (b.value === max && b.kind === 'lt')) {
      max = b.value
      maxExcluded = b.kind === 'lt'
    }
  }
  return {
    ...(min === undefined ? {} : { min }),
    ...(max === undefined ? {} : { max }),
    minExcluded,
    maxExcluded,
    steps,
  }
}

// Unbounded numbers stay in a range whose values survive a round trip through text.
const WIDE = 1e9

/** Integers from `lo` to `hi` (both safe integers): fast-check's, biased to small ones, and spread. */
function integers(fc: FC, lo: number, hi: number): Arbitrary<number> | undefined {
  if (lo > hi) return undefined
  const biased = fc.bigInt({ min: BigInt(lo), max: BigInt(hi) }).map(Number)
  return hi === lo ? biased : fc.oneof({ arbitrary: biased, weight: 2 }, spread(fc, lo, hi, true))
}

/**
 * Candidate numbers inside a number node's bounds (the caller filters with its checks): over the
 * whole range, near its bounds and at them too.
 */
export function numberCandidates(fc: FC, node: IRNumber): Arbitrary<number> | undefined {
  const r = rangeOf(node.checks)
  const lo = r.min ?? -WIDE
  const hi = r.max ?? WIDE
  const step = r.steps[0]
  if (step !== undefined && step > 0) {
    const k = integers(
      fc,
      Math.max(Math.ceil(lo / step), -WIDE),
      Math.min(Math.floor(hi / step), WIDE),
    )
    return k?.map((n) => n * step)
  }
  if (node.integer) {
    const first = r.minExcluded ? Math.floor(lo) + 1 : Math.ceil(lo)
    const last = r.maxExcluded ? Math.ceil(hi) - 1 : Math.floor(hi)
    return integers(
      fc,
      Math.max(first, Number.MIN_SAFE_INTEGER),
      Math.min(last, Number.MAX_SAFE_INTEGER),
    )
  }
  if (lo > hi) return undefined
  const doubles = fc.double({
    min: lo,
    max: hi,
    minExcluded: r.minExcluded,
    maxExcluded: r.maxExcluded,
    noNaN: true,
    noDefaultInfinity: true,
  })
  if (!(hi > lo)) return doubles
  // The spread's excluded bounds are dropped by the caller's filter.
  return fc.oneof({ arbitrary: doubles, weight: 2 }, spread(fc, lo, hi, false))
}

/** Candidate bigints inside a bigint node's bounds. */
export function bigintCandidates(fc: FC, node: IRBigInt): Arbitrary<bigint> | undefined {
  const r = rangeOf(node.checks)
  const lo = r.min === undefined ? -(2n ** 64n) : r.minExcluded ? r.min + 1n : r.min
  const hi = r.max === undefined ? 2n ** 64n : r.maxExcluded ? r.max - 1n : r.max
  const step = r.steps[0]
  if (lo > hi) return undefined
  if (step !== undefined && step > 0n) {
    const first = lo / step + (lo % step > 0n ? 1n : 0n)
    const last = hi / step - (hi % step < 0n ? 1n : 0n)
    if (first > last) return undefined
    return fc.bigInt({ min: first, max: last }).map((k) => k * step)
  }
  return fc.bigInt({ min: lo, max: hi })
}

// The range `Date` can hold, and the years a JSON date-time string can carry.
const DATE_MIN = Date.UTC(0, 0, 1)
const DATE_MAX = Date.UTC(9999, 11, 31)

/** Candidate dates inside a date node's bounds (epoch milliseconds). */
export function dateCandidates(fc: FC, node: IRDate): Arbitrary<Date> | undefined {
  const r = rangeOf(node.checks)
  const lo = Math.max(DATE_MIN, (r.min ?? DATE_MIN) + (r.minExcluded ? 1 : 0))
  const hi = Math.min(DATE_MAX, (r.max ?? DATE_MAX) - (r.maxExcluded ? 1 : 0))
  if (lo > hi) return undefined
  return fc.date({ min: new Date(lo), max: new Date(hi), noInvalidDate: true })
}
