import { describe, it } from 'vitest'
import { ValidationError } from 'yup'
import { issueMessage } from '../../src/adapters/yup/messages.js'
import { splitPath } from '../../src/adapters/yup/parse.js'
import { yupAdapter } from '../../src/adapters/yup/yup-adapter.js'
import { type YupCase, yupCase } from '../support/arbitrary-yup.js'
import { assertParity, fuzzRuns, type Outcome, PER_SCHEMA } from '../support/parity.js'
import { canonical } from './canonical.js'

// `npm test` runs 300 schemas × 20 inputs = 6,000 pairs per setting; `npm run fuzz` far more.
const RUNS = fuzzRuns(300)

function castThrows(c: YupCase, input: unknown, options: object): boolean {
  try {
    c.schema.cast(input, { ...options, assert: false })
    return false
  } catch {
    return true
  }
}

/** yup's own answer: validateSync with every error, or with its default abortEarly. */
function yupOutcome(c: YupCase, input: unknown, options: object): Outcome {
  try {
    const data = c.schema.validateSync(input, options)
    return { success: true, data: canonical(data) }
  } catch (e) {
    // yup's casts call methods of the value (`value.toUpperCase()`): an input they cannot read
    // is the client's mistake, answered as one issue at the root.
    if (e instanceof TypeError && castThrows(c, input, options)) {
      return { success: false, issues: [{ path: [], message: 'Invalid value', code: 'typeError' }] }
    }
    if (!(e instanceof ValidationError)) return { threw: String(e) }
    const list = e.inner.length > 0 ? e.inner : [e]
    return {
      success: false,
      // The adapter's messages are yup's, minus the value its type errors print.
      issues: list.map((i) => ({
        path: splitPath(i.path),
        message: issueMessage(i),
        code: i.type,
      })),
    }
  }
}

describe('compile (differential parity with yup validateSync)', () => {
  it(
    `answers like yup with stripUnknown: true on ${RUNS * PER_SCHEMA} generated schema/input pairs`,
    () => {
      assertParity({
        cases: yupCase,
        runs: RUNS,
        adapter: (c) => yupAdapter(c.schema),
        library: (c, input, allErrors) =>
          yupOutcome(c, input, { abortEarly: !allErrors, stripUnknown: true }),
        minCompiledShare: 0.3,
      })
    },
    Math.max(120_000, RUNS * 200),
  )

  it(
    `answers like yup's defaults with stripUnknown: false on ${RUNS * PER_SCHEMA} pairs`,
    () => {
      assertParity({
        cases: yupCase,
        runs: RUNS,
        adapter: (c) => yupAdapter(c.schema, { stripUnknown: false }),
        library: (c, input, allErrors) => yupOutcome(c, input, { abortEarly: !allErrors }),
        minCompiledShare: 0.3,
      })
    },
    Math.max(120_000, RUNS * 200),
  )
})
