import fc from 'fast-check'
import { expect } from 'vitest'
import type { SchemaAdapter } from '../../src/engine/adapter.js'
import { compile } from '../../src/engine/index.js'
import { canonical } from '../engine/canonical.js'

/** What one parse answered, comparable across the engine and a library's own parser. */
export type Outcome =
  | { threw: string }
  | { success: true; data: string }
  | { success: false; issues: unknown[] }

/** A generated schema with the inputs to try on it (valid ones and near misses). */
export interface ParityCase {
  readonly label: string
  readonly input: fc.Arbitrary<unknown>
}

/** Inputs tried on each generated schema; every other one with `allErrors`. */
export const PER_SCHEMA = 20

/** Generated schemas per suite: `npm test`'s default, or many more under `npm run fuzz`. */
export function fuzzRuns(testDefault: number): number {
  return Number(process.env.FUZZ_RUNS ?? testDefault)
}

export function engineOutcome(adapter: SchemaAdapter, input: unknown, allErrors: boolean): Outcome {
  try {
    const r = compile(adapter).validate(input, allErrors)
    if (r instanceof Promise) throw new Error('unexpected async result')
    return r.success
      ? { success: true, data: canonical(r.data) }
      : { success: false, issues: r.issues }
  } catch (e) {
    return { threw: String(e) }
  }
}

/**
 * The differential property every adapter must hold: on every generated schema and input, the
 * engine answers exactly as the library's own parser (success, output with key order, issues),
 * never mutates its input, and takes the compiled path on a good share of schemas (else the
 * suite would prove nothing).
 */
export function assertParity<C extends ParityCase>(options: {
  cases: fc.Arbitrary<C>
  runs: number
  adapter: (c: C) => SchemaAdapter
  library: (c: C, input: unknown, allErrors: boolean) => Outcome
  minCompiledShare: number
  /** Cases whose library parser itself may mutate a rejected input (zod's readonly freezes it). */
  libraryMutates?: (c: C) => boolean
}): number {
  let pairs = 0
  let compiledSchemas = 0
  let fastAccepts = 0
  fc.assert(
    fc.property(
      options.cases.chain((c) =>
        fc.tuple(
          fc.constant(Object.assign(c, { [fc.toStringMethod]: () => c.label })),
          fc.array(c.input, { minLength: PER_SCHEMA, maxLength: PER_SCHEMA }),
        ),
      ),
      ([c, inputs]) => {
        const adapter = options.adapter(c)
        // An IR that is not native must compile: a compiler that threw would send the schema to
        // the library alone, where every answer is right but the compiled path is never tested.
        const compilable = adapter.ir !== undefined && adapter.ir.safety !== 'native'
        if (compilable && !adapter.async) {
          expect(compile(adapter).compiled, `${c.label} did not compile`).toBe(true)
        }
        if (compile(adapter).compiled) compiledSchemas++
        for (const [i, input] of inputs.entries()) {
          const before = canonical(input)
          const allErrors = i % 2 === 0
          const got = engineOutcome(adapter, input, allErrors)
          if (!options.libraryMutates?.(c))
            expect(canonical(input), `input mutated by ${c.label}`).toBe(before)
          expect(got, `${c.label} on ${before}`).toEqual(options.library(c, input, allErrors))
          if ('success' in got && got.success && compile(adapter).compiled) fastAccepts++
          pairs++
        }
      },
    ),
    { numRuns: options.runs },
  )
  expect(pairs).toBe(options.runs * PER_SCHEMA)
  expect(compiledSchemas).toBeGreaterThan(options.runs * options.minCompiledShare)
  expect(fastAccepts).toBeGreaterThan(pairs * 0.1)
  return pairs
}
