import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type * as z from 'zod'
import { zodAdapter } from '../../src/adapters/zod/index.js'
import { typeMessage } from '../../src/adapters/zod/messages.js'
import { compile } from '../../src/engine/index.js'
import { type Case, schemaCase } from './arbitrary.js'
import { canonical } from './canonical.js'

// `npm run fuzz` sets FUZZ_RUNS; `npm test` runs 500 schemas × 20 inputs = 10,000 pairs.
const RUNS = Number(process.env.FUZZ_RUNS ?? 500)
const PER_SCHEMA = 20

type Outcome =
  | { threw: string }
  | { success: true; data: string }
  | { success: false; issues: unknown[] }

function zodOutcome(schema: z.ZodType, input: unknown, allErrors: boolean): Outcome {
  try {
    const r = schema.safeParse(input, { error: typeMessage })
    if (r.success) return { success: true, data: canonical(r.data) }
    const issues = r.error.issues.map((i) => ({ path: i.path, message: i.message, code: i.code }))
    return { success: false, issues: allErrors ? issues : issues.slice(0, 1) }
  } catch (e) {
    return { threw: String(e) }
  }
}

function engineOutcome(c: Case, input: unknown, allErrors: boolean): Outcome {
  try {
    const r = compile(zodAdapter(c.schema)).validate(input, allErrors)
    if (r instanceof Promise) throw new Error('unexpected async result')
    return r.success
      ? { success: true, data: canonical(r.data) }
      : { success: false, issues: r.issues }
  } catch (e) {
    return { threw: String(e) }
  }
}

describe('compile (differential parity with zod safeParse)', () => {
  it(
    `answers like zod on ${RUNS * PER_SCHEMA} generated schema/input pairs`,
    () => {
      let pairs = 0
      let compiledSchemas = 0
      let fastAccepts = 0
      fc.assert(
        fc.property(
          schemaCase.chain((c) =>
            fc.tuple(
              fc.constant(Object.assign(c, { [fc.toStringMethod]: () => c.label })),
              fc.array(c.input, { minLength: PER_SCHEMA, maxLength: PER_SCHEMA }),
            ),
          ),
          ([c, inputs]) => {
            const validator = compile(zodAdapter(c.schema))
            if (validator.compiled) compiledSchemas++
            for (const [i, input] of inputs.entries()) {
              const before = canonical(input)
              const allErrors = i % 2 === 0
              const got = engineOutcome(c, input, allErrors)
              // zod's own readonly freezes a rejected input in place; the engine never mutates.
              if (!c.label.includes('readonly'))
                expect(canonical(input), `input mutated by ${c.label}`).toBe(before)
              const want = zodOutcome(c.schema, input, allErrors)
              expect(got, `${c.label} on ${before}`).toEqual(want)
              if (validator.compiled && 'success' in got && got.success) fastAccepts++
              pairs++
            }
          },
        ),
        { numRuns: RUNS },
      )
      expect(pairs).toBe(RUNS * PER_SCHEMA)
      // The suite proves something only if the compiled path ran on a good share of schemas.
      expect(compiledSchemas).toBeGreaterThan(RUNS * 0.4)
      expect(fastAccepts).toBeGreaterThan(pairs * 0.1)
    },
    Math.max(120_000, RUNS * 100),
  )
})
