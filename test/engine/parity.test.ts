import { describe, it } from 'vitest'
import { zodAdapter } from '../../src/adapters/zod/index.js'
import { typeMessage } from '../../src/adapters/zod/messages.js'
import { schemaCase } from './arbitrary.js'
import { canonical } from './canonical.js'
import { assertParity, fuzzRuns, type Outcome, PER_SCHEMA } from './parity.js'

// `npm test` runs 500 schemas × 20 inputs = 10,000 pairs; `npm run fuzz` far more.
const RUNS = fuzzRuns(500)

describe('compile (differential parity with zod safeParse)', () => {
  it(
    `answers like zod on ${RUNS * PER_SCHEMA} generated schema/input pairs`,
    () => {
      assertParity({
        cases: schemaCase,
        runs: RUNS,
        adapter: (c) => zodAdapter(c.schema),
        library: (c, input, allErrors): Outcome => {
          try {
            const r = c.schema.safeParse(input, { error: typeMessage })
            if (r.success) return { success: true, data: canonical(r.data) }
            const issues = r.error.issues.map((i) => ({
              path: i.path,
              message: i.message,
              code: i.code,
            }))
            return { success: false, issues: allErrors ? issues : issues.slice(0, 1) }
          } catch (e) {
            return { threw: String(e) }
          }
        },
        minCompiledShare: 0.4,
        // zod's own readonly freezes a rejected input in place; the engine never mutates.
        libraryMutates: (c) => c.label.includes('readonly'),
      })
    },
    Math.max(120_000, RUNS * 100),
  )
})
