import type { Response } from 'express'
import type { ResolvedConfig, ResolvedTimeout } from '../core/config.js'
import { overtake } from './overtake.js'
import { resolveTimeout, type TimeoutOption } from './timeout-options.js'
import { type Deadlines, deadlines, startDeadline } from './timeouts.js'

// A route's handler timeout: from its first step until its answer's head is written. When it
// passes first, the client gets 503 HANDLER_TIMEOUT and `req.signal` aborts with a TimeoutError.

/** Why `req.signal` aborted when the route's timeout passed (as `AbortSignal.timeout` says it). */
export function timeoutReason(): DOMException {
  return new DOMException('The route did not answer within its timeout', 'TimeoutError')
}

// One list per duration and Retry-After, shared by every route and app that times with them.
const lists = new Map<string, Deadlines>()

function listFor(timeout: ResolvedTimeout, ms: number): Deadlines {
  const key = `${ms}/${timeout.retryAfter}`
  let list = lists.get(key)
  if (list === undefined) {
    const retryAfter = timeout.retryAfter
    list = deadlines(ms, (res) => {
      // A stream's head is out: its own idle and total limits take over.
      if (!res.headersSent) overtake(res, 'HANDLER_TIMEOUT', retryAfter, timeoutReason())
    })
    lists.set(key, list)
  }
  return list
}

/**
 * The timer of a route: `start(res, config)` times a request by the route's `timeout` over the
 * app's, merged once per app (the route's option is checked by planRoute).
 */
export function routeTimeout(
  given: TimeoutOption | undefined,
  where: string,
): (res: Response, config: ResolvedConfig) => void {
  const merged = new WeakMap<ResolvedConfig, Deadlines | null>()
  return function start(res, config) {
    if (given === undefined && config.timeout?.handler === undefined) return
    let list = merged.get(config)
    if (list === undefined) {
      const timeout = resolveTimeout(given, where, config.timeout)
      list = timeout?.handler === undefined ? null : listFor(timeout, timeout.handler)
      merged.set(config, list)
    }
    if (list !== null) startDeadline(list, res)
  }
}
