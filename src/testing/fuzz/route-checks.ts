import { toAdapter } from '../../adapters/resolve.js'
import type { OpenAPIDocument } from '../../openapi/generate/types.js'
import type { DiscoveredRoute, Discovery } from '../../runtime/pipeline/discover-routes.js'
import type { AnyRoute } from '../../runtime/pipeline/route-types.js'
import type { EnvelopeNames } from '../../shared/envelope-shape.js'
import { errorCodes } from '../../shared/error-codes.js'
import { timeLimits } from '../../shared/error-statuses.js'
import type { ResolvedFuzzOptions } from './fuzz-options.js'
import type { RouteChecks } from './invariants.js'
import { type ErrorAnswerCheck, operationOf } from './response-check.js'
import { type StreamChecks, streamChecks } from './stream-check.js'

// What a route's answers are held to, the same for its own phases and for the stateful sequences.

/** What the checks of a route need of the run. */
export interface ChecksRun {
  readonly o: ResolvedFuzzOptions
  readonly doc: OpenAPIDocument
  readonly errorAnswer: ErrorAnswerCheck
  readonly envelope: EnvelopeNames
  /** How the app's shapeguard() (the first mounted) answers: its `timeout` and `overload`. */
  readonly marked: Discovery['answers'][number] | undefined
}

/** The 503 codes shapeguard may answer the route with in its handler's place. */
function unavailableOf(limits: { handler: boolean }, marked: ChecksRun['marked']): Set<string> {
  const codes = new Set<string>()
  if (limits.handler) codes.add(errorCodes.HANDLER_TIMEOUT.code)
  if (marked?.overload !== undefined) codes.add(errorCodes.OVERLOADED.code)
  return codes
}

// The statuses of a route's `errors`: a registry code's, a factory's.
const declaredStatuses = (errors: AnyRoute['errors']): number[] =>
  (errors ?? []).map((e) => (typeof e === 'string' ? errorCodes[e].status : e.statusCode))

/** A route's checks, and its stream's (a route with `events` or `stream`). */
export function routeChecks(
  r: DiscoveredRoute,
  { o, doc, errorAnswer, envelope, marked }: ChecksRun,
): { checks: RouteChecks; stream: StreamChecks | undefined } {
  const key = `${r.method.toUpperCase()} ${r.path}`
  const time = timeLimits(r.route.timeout, marked?.timeout)
  const stream = streamChecks(r.route, time.stream)
  const responseSchema = r.route.response ?? r.route.sends
  const checks: RouteChecks = {
    operation: operationOf(doc, r.method, r.path),
    allowed: new Set([
      ...(o.statuses['*'] ?? []),
      ...(o.statuses[key] ?? []),
      ...declaredStatuses(r.route.errors),
    ]),
    errorAnswer,
    response: responseSchema === undefined ? undefined : toAdapter(responseSchema).ir,
    rateLimited: r.route.rateLimit !== undefined,
    unavailable: unavailableOf(time, marked),
    envelope,
    maxResponseTime: o.maxResponseTime,
    ...(stream && { stream }),
  }
  return { checks, stream }
}
