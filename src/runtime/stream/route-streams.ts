import type { ResponseStripper, RouteStreams } from '../core/context.js'
import { ndjsonStarter } from './ndjson-stream.js'
import { sseStarter } from './sse-stream.js'

/**
 * A streaming route's starters, from its slots' strippers (compiled by planRoute() as `response`
 * is): `res.sse()` of its `events`, `res.ndjson()` of its `stream`.
 */
export function routeStreams(
  events: ReadonlyMap<string, ResponseStripper> | undefined,
  item: ResponseStripper | undefined,
): RouteStreams {
  return Object.freeze({
    sse: events === undefined ? undefined : (sseStarter(events) as RouteStreams['sse']),
    ndjson: item === undefined ? undefined : (ndjsonStarter(item) as RouteStreams['ndjson']),
  })
}
