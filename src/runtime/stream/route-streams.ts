import type { ResponseStripper, RouteStreams } from '../core/context.js'
import { ndjsonStarter } from './ndjson-stream.js'
import { sseStarter } from './sse-stream.js'
import type { LimitsFor } from './stream-timer.js'

/**
 * A streaming route's starters, from its slots' strippers (compiled by planRoute() as `response`
 * is): `res.sse()` of its `events`, `res.ndjson()` of its `stream`; `limitsFor` gives their
 * `timeout.idle` and `timeout.total` under a request's app.
 */
export function routeStreams(
  events: ReadonlyMap<string, ResponseStripper> | undefined,
  item: ResponseStripper | undefined,
  limitsFor?: LimitsFor,
): RouteStreams {
  return Object.freeze({
    sse: events === undefined ? undefined : (sseStarter(events, limitsFor) as RouteStreams['sse']),
    ndjson:
      item === undefined ? undefined : (ndjsonStarter(item, limitsFor) as RouteStreams['ndjson']),
  })
}
