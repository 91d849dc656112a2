import type { DiscoveredRoute } from '../../runtime/pipeline/discover-routes.js'
import type { FuzzedRoute, FuzzFailure } from './fuzz-report.js'
import type { Run } from './fuzz-route.js'

/** What replaying an earlier run's failures gave. */
export interface Replayed {
  readonly routes: readonly FuzzedRoute[]
  readonly failures: readonly FuzzFailure[]
}

/**
 * Sends the requests of an earlier run's failures again, exactly (a stateful failure's whole
 * sequence), each answer held to its route's checks.
 * TODO(issue 48): the reports helper builds it.
 */
export async function replayFailures(
  _failures: readonly FuzzFailure[],
  _routes: readonly DiscoveredRoute[],
  _run: Run,
): Promise<Replayed> {
  return { routes: [], failures: [] }
}
