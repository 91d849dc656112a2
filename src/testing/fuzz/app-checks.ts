import type { DiscoveredRoute } from '../../runtime/pipeline/discover-routes.js'
import type { FuzzedRoute, FuzzFailure } from './fuzz-report.js'
import type { Run } from './fuzz-route.js'

/** What the checks across the app's routes gave (undeclared methods: 405 with `Allow`). */
export interface AppChecks {
  readonly route: FuzzedRoute | undefined
  readonly failures: readonly FuzzFailure[]
}

/**
 * Checks that need every route of a path: a method no route of a path declares answers 405 with
 * an `Allow` header naming those that are.
 * TODO(issue 48): the checks helper builds it.
 */
export async function appChecks(
  _routes: readonly DiscoveredRoute[],
  _run: Run,
): Promise<AppChecks> {
  return { route: undefined, failures: [] }
}
