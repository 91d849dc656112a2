import { describe, expect, it } from 'vitest'
import { quantile, ratioInterval } from '../../bench/fixtures/slice-stats.js'

describe('quantile (bench/fixtures/slice-stats.ts)', () => {
  it('interpolates between the nearest values of the sorted list', () => {
    const xs = [4, 1, 3, 2]
    expect([0, 0.25, 0.5, 0.75, 1].map((p) => quantile(xs, p))).toEqual([1, 1.75, 2.5, 3.25, 4])
    expect(xs).toEqual([4, 1, 3, 2])
    expect(quantile([7], 0.75)).toBe(7)
    expect(() => quantile([], 0.5)).toThrow('empty')
  })
})

describe('ratioInterval (bench/fixtures/slice-stats.ts)', () => {
  const median = (xs: readonly number[]) => quantile(xs, 0.5)
  const a = Array.from({ length: 30 }, (_, i) => 100 + ((i * 37) % 23))
  const b = Array.from({ length: 30 }, (_, i) => 100 + ((i * 11) % 19))

  it('is exact for constant lists', () => {
    expect(ratioInterval([10, 10, 10], [5, 5], median)).toEqual([2, 2])
  })

  it('holds the ratio of the estimates, and is the same for the same seed', () => {
    const [lo, hi] = ratioInterval(a, b, median)
    const point = median(a) / median(b)
    expect(lo).toBeLessThan(point)
    expect(hi).toBeGreaterThan(point)
    expect(ratioInterval(a, b, median)).toEqual([lo, hi])
    expect(ratioInterval(a, b, median, 2000, 2)).not.toEqual([lo, hi])
  })

  it('narrows as the slices agree more', () => {
    const wide = ratioInterval(a, b, median)
    const tight = ratioInterval(
      a.map((x) => 100 + (x - 100) / 10),
      b.map((x) => 100 + (x - 100) / 10),
      median,
    )
    expect(tight[1] - tight[0]).toBeLessThan(wide[1] - wide[0])
  })
})
