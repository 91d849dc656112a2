import type { Arbitrary } from 'fast-check'
import type { FC } from '../load-fast-check.js'

// Reach: fast-check's default size keeps lengths near the lower bound (a `max(60)` string never
// passed 13 characters). Each size below is drawn from three branches: near the lower bound
// (small values, most bugs, fastest shrinking), anywhere up to the top, and the top's last tenth
// with the top itself, so a bound's far edge is met in a run of a hundred requests.

/** Weights of the near, anywhere and top branches. */
const NEAR = 3
const ANYWHERE = 2
const TOP = 1

/** Sizes from `min` to `top`, a third of them past `min + near`, the top itself often. */
export function sizes(fc: FC, min: number, top: number, near = 12): Arbitrary<number> {
  if (top <= min) return fc.constant(min)
  const close = fc.integer({ min, max: Math.min(top, min + near) })
  if (top <= min + near) return fc.oneof(close, fc.constant(top))
  const tenth = Math.max(min, top - Math.ceil((top - min) / 10))
  return fc.oneof(
    { arbitrary: close, weight: NEAR },
    { arbitrary: fc.integer({ min, max: top }), weight: ANYWHERE },
    {
      arbitrary: fc.oneof(fc.constant(top), fc.integer({ min: tenth, max: top })),
      weight: TOP,
    },
  )
}

/**
 * Arrays of `item` from `min` to `top` items, by {@link sizes}; a wide array takes `wideItem`
 * (items built for a smaller share of the budget) when given.
 */
export function arraysOf<T>(
  fc: FC,
  item: Arbitrary<T>,
  min: number,
  top: number,
  wideItem: Arbitrary<T> = item,
  near = 4,
): Arbitrary<T[]> {
  const close = fc.array(item, { minLength: min, maxLength: Math.min(top, min + near) })
  if (top <= min + near) return close
  const tenth = Math.max(min, top - Math.ceil((top - min) / 10))
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: close, weight: NEAR },
    { arbitrary: fc.array(wideItem, { minLength: min, maxLength: top, size: 'max' }), weight: 1 },
    { arbitrary: fc.array(wideItem, { minLength: tenth, maxLength: top }), weight: 1 },
  )
}

/**
 * Numbers spread evenly over `[lo, hi]` (fast-check's doubles crowd near zero: a range's top tenth
 * came up in few draws), and the bounds themselves with their neighbours.
 */
export function spread(fc: FC, lo: number, hi: number, integer: boolean): Arbitrary<number> {
  const even = fc.integer({ min: 0, max: 1_000_000 }).map((k) => {
    const t = k / 1_000_000
    const x = lo * (1 - t) + hi * t
    return integer ? Math.round(x) : x
  })
  const step = integer ? 1 : Math.max(Math.abs(hi - lo) * 1e-9, Number.EPSILON)
  const edges = [lo, hi, lo + step, hi - step].filter((x) => x >= lo && x <= hi)
  return fc.oneof(even, fc.constantFrom(...edges))
}
