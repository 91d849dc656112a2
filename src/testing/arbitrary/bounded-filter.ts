import type { Arbitrary, Stream, Value } from 'fast-check'
import type { FC } from '../load-fast-check.js'

/** How many generated values in a row a filter may reject before it gives up. */
export const MAX_TRIES = 100

/**
 * Thrown when a filter rejected {@link MAX_TRIES} generated values in a row: the schema's
 * refinements (or its checks together) accept too little of what its IR describes.
 */
export class ArbitraryGaveUp extends Error {
  override name = 'ArbitraryGaveUp'
}

/**
 * `arb` filtered by `keep`, with a bounded retry: fast-check's own `filter` retries forever on a
 * predicate that never holds. Shrinking stays inside the filter.
 * @param what what was generated, for the message (`"valid values at body.name"`)
 */
export function boundedFilter<T>(
  fc: FC,
  arb: Arbitrary<T>,
  keep: (value: T) => boolean,
  what: string,
): Arbitrary<T> {
  class Bounded extends fc.Arbitrary<T> {
    generate(mrng: Parameters<Arbitrary<T>['generate']>[0], bias: number | undefined): Value<T> {
      for (let i = 0; i < MAX_TRIES; i++) {
        const candidate = arb.generate(mrng, bias)
        if (keep(candidate.value)) return candidate
      }
      throw new ArbitraryGaveUp(
        `shapeguard: arbitrary(): gave up generating ${what}: ${MAX_TRIES} candidates in a row ` +
          'were rejected by the schema (a refinement the IR cannot see, or checks that together ' +
          'accept very little). Loosen the schema or pass your own arbitrary for this part.',
      )
    }
    canShrinkWithoutContext(value: unknown): value is T {
      return arb.canShrinkWithoutContext(value) && keep(value)
    }
    shrink(value: T, context: unknown): Stream<Value<T>> {
      return arb.shrink(value, context).filter((v) => keep(v.value))
    }
  }
  return new Bounded()
}

/**
 * One of several arbitraries, like `fc.oneof`, except that a branch that gives up (a bounded
 * filter found nothing) hands over to the next: a union whose options' near misses are mostly
 * taken by another option still yields the misses the others find. Gives up when every branch does.
 */
export function failoverOneOf<T>(fc: FC, arbs: readonly Arbitrary<T>[]): Arbitrary<T> {
  if (arbs.length === 1) return arbs[0]!
  type Ctx = { readonly index: number; readonly context: unknown }
  const wrap = (index: number, v: Value<T>) =>
    new fc.Value<T>(v.value_, { index, context: v.context } satisfies Ctx)
  class Failover extends fc.Arbitrary<T> {
    generate(mrng: Parameters<Arbitrary<T>['generate']>[0], bias: number | undefined): Value<T> {
      const first = mrng.nextInt(0, arbs.length - 1)
      let last: unknown
      for (let k = 0; k < arbs.length; k++) {
        const index = (first + k) % arbs.length
        try {
          return wrap(index, arbs[index]!.generate(mrng, bias))
        } catch (error) {
          if (!(error instanceof ArbitraryGaveUp)) throw error
          last = error
        }
      }
      throw last
    }
    canShrinkWithoutContext(_value: unknown): _value is T {
      return false
    }
    shrink(value: T, context: unknown): Stream<Value<T>> {
      const c = context as Ctx | undefined
      if (c === undefined) return fc.Stream.nil()
      return arbs[c.index]!.shrink(value, c.context).map((v) => wrap(c.index, v))
    }
  }
  return new Failover()
}
