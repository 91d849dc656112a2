import type { Response } from 'express'
import { peekContext } from '../core/context.js'
import { routePatternOf } from '../host/route-pattern.js'
import { resolveLogger } from '../logging/resolve-logger.js'

// One warning per route: a busy route must not flood the log. Keyed by the host's route object, so
// a route warns once whatever path or method reached it, and a router mounted twice once.
const warned = new WeakSet<object>()

// Data whose fields a response schema would choose: an object, or a list not empty.
function carriesFields(data: unknown): boolean {
  return typeof data === 'object' && data !== null && !(Array.isArray(data) && data.length === 0)
}

/**
 * Logs once per route that a success helper sent `data` on a route without a response schema:
 * every field its handler passed reached the client. Only the route as registered and the method
 * are named, never a request value. Nothing is said of data without fields, of a route that turned
 * the warning off, or outside a route (`use()` middleware, a response double): there is no route
 * to give a schema to.
 */
export function warnMissingSchema(res: Response, data: unknown): void {
  if (!carriesFields(data) || peekContext(res)?.schemaWarning === false) return
  const req = res.req
  const route: unknown = req?.route
  if (typeof route !== 'object' || route === null || warned.has(route)) return
  warned.add(route)
  try {
    const endpoint = routePatternOf(req)
    resolveLogger(undefined).warn(
      { method: req.method, endpoint },
      `shapeguard: ${req.method} ${endpoint} sent data without a response schema, so every field its handler passes reaches the client: give the route a response schema, or turn this warning off with warnings.missingResponseSchema false on the route or in shapeguard()`,
    )
  } catch {
    // A logger that throws loses the warning, never the answer.
  }
}
