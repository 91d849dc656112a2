import * as v from 'valibot'
import { describe, it } from 'vitest'
import { valibotAdapter } from '../../src/adapters/valibot/index.js'
import { issueMessage } from '../../src/adapters/valibot/messages.js'
import { valibotCase } from '../support/arbitrary-valibot.js'
import { assertParity, fuzzRuns, type Outcome, PER_SCHEMA } from '../support/parity.js'
import { canonical } from './canonical.js'

// `npm test` runs 400 schemas × 20 inputs = 8,000 pairs; `npm run fuzz` far more.
const RUNS = fuzzRuns(400)

/**
 * valibot's own answer: every issue of a full parse, or the first of them (its default messages
 * without the value they print, as the adapter gives them).
 */
function valibotOutcome(schema: v.GenericSchema, input: unknown, allErrors: boolean): Outcome {
  try {
    const r = v.safeParse(schema, input)
    if (r.success) return { success: true, data: canonical(r.output) }
    const issues = r.issues.map((i) => ({
      path: (i.path ?? []).map((p) => p.key),
      message: issueMessage(i),
      code: i.type,
    }))
    return { success: false, issues: allErrors ? issues : issues.slice(0, 1) }
  } catch (e) {
    return { threw: String(e) }
  }
}

describe('compile (differential parity with valibot safeParse)', () => {
  it(
    `answers like valibot on ${RUNS * PER_SCHEMA} generated schema/input pairs`,
    () => {
      assertParity({
        cases: valibotCase,
        runs: RUNS,
        adapter: (c) => valibotAdapter(c.schema),
        library: (c, input, allErrors) => valibotOutcome(c.schema, input, allErrors),
        minCompiledShare: 0.3,
      })
    },
    Math.max(120_000, RUNS * 100),
  )
})
