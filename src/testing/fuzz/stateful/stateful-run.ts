import type { DiscoveredRoute } from '../../../runtime/pipeline/discover-routes.js'
import type { FuzzedRoute, FuzzFailure } from '../fuzz-report.js'
import type { Run } from '../fuzz-route.js'

/** What the stateful phase gave: its requests (as a route of the report) and the failures found. */
export interface StatefulRun {
  readonly route: FuzzedRoute | undefined
  readonly failures: readonly FuzzFailure[]
}

/**
 * The stateful phase: sequences that create a resource and then read, update and delete it,
 * through the links between the routes.
 * TODO(issue 48): the stateful helper builds it.
 */
export async function statefulRun(
  _routes: readonly DiscoveredRoute[],
  _run: Run,
): Promise<StatefulRun> {
  return { route: undefined, failures: [] }
}
