import {
  type CheckOutcome,
  type CheckState,
  type ResolvedCheck,
  runCheck,
} from './health-checks.js'

/** What one readiness run found: whether every check passed, and each check's outcome by name. */
export interface ReadinessReport {
  readonly ready: boolean
  readonly outcomes: ReadonlyMap<string, CheckOutcome>
}

/** Each check's state by name, in the order the checks were given. */
export function statesOf(report: ReadinessReport): Record<string, CheckState> {
  const states: Record<string, CheckState> = {}
  for (const [name, outcome] of report.outcomes) states[name] = outcome.state
  return states
}

/**
 * Runs every check at once, each within its own timeout. Readiness runs are coalesced: while one
 * is in flight, every probe that arrives shares its report instead of starting the checks again,
 * so a thousand probes against a slow database make one ping, not a thousand.
 */
export function readiness(checks: readonly ResolvedCheck[]): () => Promise<ReadinessReport> {
  let inFlight: Promise<ReadinessReport> | undefined

  async function run(): Promise<ReadinessReport> {
    const outcomes = await Promise.all(checks.map(runCheck))
    const byName = new Map<string, CheckOutcome>()
    let ready = true
    outcomes.forEach((outcome, i) => {
      byName.set(checks[i]!.name, outcome)
      if (outcome.state !== 'ok') ready = false
    })
    return { ready, outcomes: byName }
  }

  return function check(): Promise<ReadinessReport> {
    if (inFlight !== undefined) return inFlight
    const current = run()
    inFlight = current
    // runCheck never rejects, so neither does the run: the slot is always freed.
    void current.then(() => {
      if (inFlight === current) inFlight = undefined
    })
    return current
  }
}
