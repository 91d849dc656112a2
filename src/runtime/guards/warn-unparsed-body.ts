import type { Request } from 'express'
import { routePatternOf } from '../host/route-pattern.js'
import { logger } from '../logging/logger.js'
import type { Unparsed } from './content-type.js'

// The kinds of unparsed body each app was warned about; a request outside any app (a test
// double) counts as one app.
const warned = new WeakMap<object, Set<string>>()
const noApp = {}

/**
 * Logs once per app and kind of body (JSON, `+json`, form) that a guarded route received with a
 * correct Content-Type but no body parser read: the client gets a 415, the developer is told which
 * parser to mount (`app.use(express.json())`) and for which route. Names the method and the
 * route as registered (`/orgs/:org/items`, or `a use() path` outside a route), never a request
 * value: not even the mount path as the client spelled it.
 * @example checkContentType(req, warnUnparsedBody)
 */
export function warnUnparsedBody(req: Request, unparsed: Unparsed): void {
  const app = (req as { app?: object }).app ?? noApp
  let kinds = warned.get(app)
  if (kinds === undefined) {
    kinds = new Set()
    warned.set(app, kinds)
  }
  if (kinds.has(unparsed.type)) return
  kinds.add(unparsed.type)
  logger.warn(
    `shapeguard: ${req.method} ${routePatternOf(req) ?? 'a use() path'} received an ${unparsed.type} body that no body parser read, and answered 415: mount ${unparsed.parser} before this route`,
  )
}
