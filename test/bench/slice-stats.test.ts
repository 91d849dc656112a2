import { describe, expect, it } from 'vitest'
import { quantile, ratioInterval } from '../../bench/fixtures/slice-stats.js'

describe('quantile (bench/fixtures/slice-stats.ts)', () => {
  it('interpolates between the nearest values of the sorted list', () => {
    const xs = [4, 1, 3, 2]
    expect([0, 0.25, 0.5, 0.75, 1].map((p) => quantile(xs, p))).toEqual([1, 1.75, 2.5, 3.25, 4])
    expect(xs).toEqual([4, 1, 3, 2])
    expect(quantile([7], 0.75)).toBe(7)
    expect(() => quantile([], 0.5)).toThrow('empty')
    expect(() => quantile([1], 1.5)).toThrow(RangeError)
  })
})

describe('ratioInterval (bench/fixtures/slice-stats.ts)', () => {
  const median = (xs: readonly number[]) => quantile(xs, 0.5)
  const a = Array.from({ length: 30 }, (_, i) => 100 + ((i * 37) % 23))
  const b = Array.from({ length: 30 }, (_, i) => 100 + ((i * 11) % 19))

  // Three processes of ten slices each.
  const groups = (xs: number[]) => [xs.slice(0, 10), xs.slice(10, 20), xs.slice(20)]

  it('is exact for constant lists', () => {
    expect(ratioInterval([[10, 10], [10]], [[5, 5]], median)).toEqual([2, 2])
  })

  it('holds the ratio of the estimates, and is the same for the same seed', () => {
    const [lo, hi] = ratioInterval(groups(a), groups(b), median)
    const point = median(a) / median(b)
    expect(lo).toBeLessThan(point)
    expect(hi).toBeGreaterThan(point)
    expect(ratioInterval(groups(a), groups(b), median)).toEqual([lo, hi])
    expect(ratioInterval(groups(a), groups(b), median, 2000, 2)).not.toEqual([lo, hi])
  })

  it('narrows as the slices agree more', () => {
    const wide = ratioInterval(groups(a), groups(b), median)
    const squeeze = (xs: number[]) => groups(xs.map((x) => 100 + (x - 100) / 10))
    const tight = ratioInterval(squeeze(a), squeeze(b), median)
    expect(tight[1] - tight[0]).toBeLessThan(wide[1] - wide[0])
  })

  it('widens when the processes disagree, though the slices are the same', () => {
    // The same 30 values, once spread evenly over the processes and once one process per level.
    const levels = Array.from({ length: 30 }, (_, i) => 90 + (i % 3) * 10)
    const mixed = groups(levels)
    const apart = [0, 1, 2].map((k) => levels.filter((_, i) => i % 3 === k))
    const steady = [Array(10).fill(100), Array(10).fill(100), Array(10).fill(100)]
    const within = ratioInterval(mixed, steady, median)
    const between = ratioInterval(apart, steady, median)
    expect(between[1] - between[0]).toBeGreaterThan(within[1] - within[0])
  })
})
