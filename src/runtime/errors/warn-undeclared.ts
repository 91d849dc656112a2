import type { Request, Response } from 'express'
import type { AppError } from '../core/app-error.js'
import { peekContext } from '../core/context.js'
import { routePatternOf } from '../host/route-pattern.js'
import type { Logger } from '../logging/types.js'

// One warning per route and code: a busy route must not flood the log. Keyed by the host's route
// object, as the missing response schema warning is; a route's codes are few, and past this many
// (codes made from data) it stops remembering and stops warning.
const warned = new WeakMap<object, Set<string>>()
const MAX_CODES = 64

/**
 * In development, logs once per route and code that a guarded route's handler raised an AppError
 * whose code the route does not declare (its `errors`, or a code shapeguard sends for it): the
 * document, the typed client and the fuzzer do not know that answer. Names the route as
 * registered and the code, never the message or details. Production never records what a route
 * declares, so nothing runs there.
 */
export function warnUndeclared(req: Request, res: Response, error: AppError, logger: Logger): void {
  const declared = peekContext(res)?.declared
  if (declared === undefined || declared.has(error.code)) return
  const route: unknown = req.route
  if (typeof route !== 'object' || route === null) return
  let codes = warned.get(route)
  if (codes === undefined) {
    codes = new Set<string>()
    warned.set(route, codes)
  }
  if (codes.has(error.code) || codes.size >= MAX_CODES) return
  codes.add(error.code)
  const endpoint = routePatternOf(req)
  logger.warn(
    { method: req.method, endpoint, code: error.code },
    `shapeguard: ${req.method} ${endpoint} raised ${error.code}, which its route does not declare: add it to the route's errors (a registry code or an AppError.define() factory) so that the document, the typed client and the fuzzer know it`,
  )
}
