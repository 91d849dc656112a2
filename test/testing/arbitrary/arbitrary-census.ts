import fc from 'fast-check'
import type { SchemaAdapter } from '../../../src/engine/adapter.js'
import { libraryAccepts } from '../../../src/testing/arbitrary/arbitrary.js'
import { ArbitraryGaveUp } from '../../../src/testing/arbitrary/bounded-filter.js'
import { miss } from '../../../src/testing/arbitrary/ir-invalid.js'
import { type GenContext, gen } from '../../../src/testing/arbitrary/ir-valid.js'
import { fastCheck } from '../../../src/testing/load-fast-check.js'

/** What generating from the IR of many random schemas gave, checked by each library's parser. */
export interface Census {
  schemas: number
  /** Schemas whose IR is fully visible (no native node): the ones the raw generators are held to. */
  visible: number
  values: number
  /** Valid values (raw IR generator, no library filter) the library rejected: must be 0. */
  rejected: number
  /** Near misses (raw IR generator, no library filter) the library accepted: must be 0. */
  acceptedMisses: number
  misses: number
  /** Schemas whose checks together accept nothing the generator can find (e.g. email.length(3)). */
  gaveUp: number
  failures: string[]
}

const context = (): GenContext => ({
  fc: fastCheck(),
  at: 'value',
  recursions: new Map(),
  rounds: 0,
})

/**
 * Generates values straight from the IR of random schemas (no filter by the library) and counts
 * what the library rejects among the valid ones and accepts among the near misses.
 */
export function census<C extends { label: string }>(
  cases: fc.Arbitrary<C>,
  adapterOf: (c: C) => SchemaAdapter,
  runs: number,
  perSchema = 10,
): Census {
  const out: Census = {
    schemas: 0,
    visible: 0,
    values: 0,
    rejected: 0,
    acceptedMisses: 0,
    misses: 0,
    gaveUp: 0,
    failures: [],
  }
  fc.sample(cases, { numRuns: runs, seed: 20 }).forEach((c, i) => {
    out.schemas++
    const adapter = adapterOf(c)
    if (adapter.ir === undefined || adapter.ir.safety === 'native' || adapter.async) return
    out.visible++
    try {
      const valid = gen(adapter.ir, context())
      for (const v of valid ? fc.sample(valid, { numRuns: perSchema, seed: i }) : []) {
        out.values++
        if (libraryAccepts(adapter, v) === false) {
          out.rejected++
          out.failures.push(`valid ${c.label}: ${String(JSON.stringify(v))}`)
        }
      }
      const misses = miss(adapter.ir, context())
      for (const m of misses ? fc.sample(misses, { numRuns: perSchema, seed: i }) : []) {
        out.misses++
        if (libraryAccepts(adapter, m.value) === true) {
          out.acceptedMisses++
          out.failures.push(`invalid ${c.label}: ${String(JSON.stringify(m.value))}`)
        }
      }
    } catch (error) {
      if (!(error instanceof ArbitraryGaveUp)) throw error
      out.gaveUp++
    }
  })
  return out
}

/** What the public `arbitrary()` gave on random schemas: its values as the library judged them. */
export interface PublicCensus {
  schemas: number
  valid: number
  /** Valid values the library rejected: must be 0. */
  rejected: number
  invalid: number
  /** Invalid values the library accepted: must be 0. */
  accepted: number
  /** Schemas for which a mode gave up with its message (checks that accept (almost) nothing). */
  gaveUp: number
}

/** Samples `arbitrary(schema)` in valid and invalid mode for random schemas, judged by the library. */
export function publicCensus<C>(
  cases: fc.Arbitrary<C>,
  adapterOf: (c: C) => SchemaAdapter,
  runs: number,
  arbitraryOf: (adapter: SchemaAdapter, mode: 'valid' | 'invalid') => fc.Arbitrary<unknown>,
): PublicCensus {
  const out: PublicCensus = {
    schemas: 0,
    valid: 0,
    rejected: 0,
    invalid: 0,
    accepted: 0,
    gaveUp: 0,
  }
  fc.sample(cases, { numRuns: runs, seed: 27 }).forEach((c, i) => {
    const adapter = adapterOf(c)
    if (adapter.async) return
    out.schemas++
    for (const mode of ['valid', 'invalid'] as const) {
      try {
        for (const v of fc.sample(arbitraryOf(adapter, mode), { numRuns: 5, seed: i })) {
          const ok = libraryAccepts(adapter, v)
          if (mode === 'valid') {
            out.valid++
            if (ok === false) out.rejected++
          } else {
            out.invalid++
            if (ok === true) out.accepted++
          }
        }
      } catch (error) {
        if (!(error instanceof ArbitraryGaveUp) && !(error instanceof TypeError)) throw error
        out.gaveUp++
      }
    }
  })
  return out
}
