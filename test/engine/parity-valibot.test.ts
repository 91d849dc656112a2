import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { valibotAdapter } from '../../src/adapters/valibot/index.js'
import { compile } from '../../src/engine/index.js'
import { type ValibotCase, valibotCase } from './arbitrary-valibot.js'
import { canonical } from './canonical.js'

// `npm run fuzz` sets FUZZ_RUNS; `npm test` runs 400 schemas × 20 inputs = 8,000 pairs.
const RUNS = Number(process.env.FUZZ_RUNS ?? 400)
const PER_SCHEMA = 20

type Outcome =
  | { threw: string }
  | { success: true; data: string }
  | { success: false; issues: unknown[] }

/** valibot's own answer: every issue of a full parse, or the first of them. */
function valibotOutcome(schema: v.GenericSchema, input: unknown, allErrors: boolean): Outcome {
  try {
    const r = v.safeParse(schema, input)
    if (r.success) return { success: true, data: canonical(r.output) }
    const issues = r.issues.map((i) => ({
      path: (i.path ?? []).map((p) => p.key),
      message: i.message,
      code: i.type,
    }))
    return { success: false, issues: allErrors ? issues : issues.slice(0, 1) }
  } catch (e) {
    return { threw: String(e) }
  }
}

function engineOutcome(c: ValibotCase, input: unknown, allErrors: boolean): Outcome {
  try {
    const r = compile(valibotAdapter(c.schema)).validate(input, allErrors)
    if (r instanceof Promise) throw new Error('unexpected async result')
    return r.success
      ? { success: true, data: canonical(r.data) }
      : { success: false, issues: r.issues }
  } catch (e) {
    return { threw: String(e) }
  }
}

describe('compile (differential parity with valibot safeParse)', () => {
  it(
    `answers like valibot on ${RUNS * PER_SCHEMA} generated schema/input pairs`,
    () => {
      let pairs = 0
      let compiledSchemas = 0
      let fastAccepts = 0
      fc.assert(
        fc.property(
          valibotCase.chain((c) =>
            fc.tuple(
              fc.constant(Object.assign(c, { [fc.toStringMethod]: () => c.label })),
              fc.array(c.input, { minLength: PER_SCHEMA, maxLength: PER_SCHEMA }),
            ),
          ),
          ([c, inputs]) => {
            const validator = compile(valibotAdapter(c.schema))
            if (validator.compiled) compiledSchemas++
            for (const [i, input] of inputs.entries()) {
              const before = canonical(input)
              const allErrors = i % 2 === 0
              const got = engineOutcome(c, input, allErrors)
              expect(canonical(input), `input mutated by ${c.label}`).toBe(before)
              const want = valibotOutcome(c.schema, input, allErrors)
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
      expect(compiledSchemas).toBeGreaterThan(RUNS * 0.3)
      expect(fastAccepts).toBeGreaterThan(pairs * 0.1)
    },
    Math.max(120_000, RUNS * 100),
  )
})
