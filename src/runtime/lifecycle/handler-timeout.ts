import type { Response } from 'express'
import type { ResolvedConfig, ResolvedTimeout } from '../core/config.js'
import { overtake } from './overtake.js'
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
 * The timer of a route: `start(res, config)` times a request by the route's limits under the
 * request's app (`limitsFor`, the route's `timeout` merged over the app's by route-timeout.ts;
 * undefined for a route without its own, which takes the app's as it is).
 */
export function handlerTimer(
  limitsFor: ((config: ResolvedConfig) => ResolvedTimeout | undefined) | undefined,
): (res: Response, config: ResolvedConfig) => void {
  const lists = new WeakMap<ResolvedConfig, Deadlines | null>()
  // A route almost always runs under one app: its list is kept beside the table's.
  let lastConfig: ResolvedConfig | undefined
  let lastList: Deadlines | null = null
  return function start(res, config) {
    // Most routes: neither the route nor its app sets a limit, and nothing is looked up.
    if (limitsFor === undefined && config.timeout?.handler === undefined) return
    if (config !== lastConfig) {
      let list = lists.get(config)
      if (list === undefined) {
        const timeout = limitsFor === undefined ? config.timeout : limitsFor(config)
        list = timeout?.handler === undefined ? null : listFor(timeout, timeout.handler)
        lists.set(config, list)
      }
      lastConfig = config
      lastList = list
    }
    if (lastList !== null) startDeadline(lastList, res)
  }
}
