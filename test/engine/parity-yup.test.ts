import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ValidationError } from 'yup'
import { splitPath, yupAdapter } from '../../src/adapters/yup/yup-adapter.js'
import { compile } from '../../src/engine/index.js'
import { type YupCase, yupCase } from './arbitrary-yup.js'
import { canonical } from './canonical.js'

// `npm run fuzz` sets FUZZ_RUNS; `npm test` runs 300 schemas × 20 inputs = 6,000 pairs.
const RUNS = Number(process.env.FUZZ_RUNS ?? 300)
const PER_SCHEMA = 20

type Outcome =
  | { threw: string }
  | { success: true; data: string }
  | { success: false; issues: unknown[] }

/** yup's own answer: validateSync with every error, or with its default abortEarly. */
function yupOutcome(c: YupCase, input: unknown, allErrors: boolean): Outcome {
  try {
    return {
      success: true,
      data: canonical(c.schema.validateSync(input, { abortEarly: !allErrors })),
    }
  } catch (e) {
    if (!(e instanceof ValidationError)) return { threw: String(e) }
    const list = e.inner.length > 0 ? e.inner : [e]
    return {
      success: false,
      issues: list.map((i) => ({ path: splitPath(i.path), message: i.message, code: i.type })),
    }
  }
}

function engineOutcome(c: YupCase, input: unknown, allErrors: boolean): Outcome {
  try {
    const r = compile(yupAdapter(c.schema)).validate(input, allErrors)
    if (r instanceof Promise) throw new Error('unexpected async result')
    return r.success
      ? { success: true, data: canonical(r.data) }
      : { success: false, issues: r.issues }
  } catch (e) {
    return { threw: String(e) }
  }
}

describe('compile (differential parity with yup validateSync)', () => {
  it(
    `answers like yup on ${RUNS * PER_SCHEMA} generated schema/input pairs`,
    () => {
      let pairs = 0
      let compiledSchemas = 0
      let fastAccepts = 0
      fc.assert(
        fc.property(
          yupCase.chain((c) =>
            fc.tuple(
              fc.constant(Object.assign(c, { [fc.toStringMethod]: () => c.label })),
              fc.array(c.input, { minLength: PER_SCHEMA, maxLength: PER_SCHEMA }),
            ),
          ),
          ([c, inputs]) => {
            const validator = compile(yupAdapter(c.schema))
            if (validator.compiled) compiledSchemas++
            for (const [i, input] of inputs.entries()) {
              const before = canonical(input)
              const allErrors = i % 2 === 0
              const got = engineOutcome(c, input, allErrors)
              expect(canonical(input), `input mutated by ${c.label}`).toBe(before)
              const want = yupOutcome(c, input, allErrors)
              expect(got, `${c.label} on ${before}`).toEqual(want)
              if (validator.compiled && 'success' in got && got.success) fastAccepts++
              pairs++
            }
          },
        ),
        { numRuns: RUNS },
      )
      expect(pairs).toBe(RUNS * PER_SCHEMA)
      expect(compiledSchemas).toBeGreaterThan(RUNS * 0.3)
      expect(fastAccepts).toBeGreaterThan(pairs * 0.1)
    },
    Math.max(120_000, RUNS * 200),
  )
})
