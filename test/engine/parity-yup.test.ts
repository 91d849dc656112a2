import { describe, it } from 'vitest'
import { ValidationError } from 'yup'
import { splitPath, yupAdapter } from '../../src/adapters/yup/yup-adapter.js'
import { yupCase } from './arbitrary-yup.js'
import { canonical } from './canonical.js'
import { assertParity, fuzzRuns, type Outcome, PER_SCHEMA } from './parity.js'

// `npm test` runs 300 schemas × 20 inputs = 6,000 pairs; `npm run fuzz` far more.
const RUNS = fuzzRuns(300)

describe('compile (differential parity with yup validateSync)', () => {
  it(
    `answers like yup on ${RUNS * PER_SCHEMA} generated schema/input pairs`,
    () => {
      assertParity({
        cases: yupCase,
        runs: RUNS,
        adapter: (c) => yupAdapter(c.schema),
        // yup's own answer: validateSync with every error, or with its default abortEarly.
        library: (c, input, allErrors): Outcome => {
          try {
            const data = c.schema.validateSync(input, { abortEarly: !allErrors })
            return { success: true, data: canonical(data) }
          } catch (e) {
            if (!(e instanceof ValidationError)) return { threw: String(e) }
            const list = e.inner.length > 0 ? e.inner : [e]
            return {
              success: false,
              issues: list.map((i) => ({
                path: splitPath(i.path),
                message: i.message,
                code: i.type,
              })),
            }
          }
        },
        minCompiledShare: 0.3,
      })
    },
    Math.max(120_000, RUNS * 200),
  )
})
