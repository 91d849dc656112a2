import type { Arbitrary, Stream, Value } from 'fast-check'
import type { FC } from './load-fast-check.js'

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
        `shapeguard arbitrary(): gave up generating ${what}: ${MAX_TRIES} candidates in a row ` +
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
