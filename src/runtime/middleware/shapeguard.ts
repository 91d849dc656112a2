import type { RequestHandler } from 'express'
import { warnUnknownSchemes } from '../auth/warn-unknown-schemes.js'
import { useDictionaryMode } from '../core/dictionary-mode.js'
import { setRequestField } from '../core/request-fields.js'
import { markShapeguard } from '../core/route-mark.js'
import { isHealthRequest } from '../lifecycle/health-requests.js'
import { refuseOverloaded, watchOverload } from '../lifecycle/overload.js'
import { installRequestLog } from '../logging/child-logger.js'
import { credentialPaths } from '../logging/credential-paths.js'
import { requestLogger } from '../logging/request-logger.js'
import { installHelpers } from '../response/helpers.js'
import { warnHandlerOrder } from '../router/warn-handler-order.js'
import { generateRequestId, requestIdStep } from './request-id.js'
import { resolveConfig, type ShapeguardConfig } from './resolve-config.js'

/**
 * The main middleware: mount once, before your routes. Resolves the configuration once, gives
 * every request its ID (`req.id`), puts the response helpers (`res.ok`, `res.fail`, …) on every
 * response and makes the configuration reachable from that request only, so two apps in one
 * process never share it.
 * With `overload`, a request that arrives while the process is past its limits is answered 503
 * OVERLOADED with `Retry-After` before any other work (health routes excepted).
 * @param config `debug`, `requestId`, `logger`, `validation`, `response`, `errors`, `cookies`, `overload` (see the README); default `{}`
 * @example app.use(shapeguard({ response: { statusCodes: { POST: 200 } } }))
 */
export function shapeguard(config: ShapeguardConfig = {}): RequestHandler {
  const resolved = resolveConfig(config)
  // Mounted after the request ID step (it reads `req.id`); it calls `next` itself.
  const logRequest = requestLogger(
    config.logger,
    resolved.debug,
    {},
    credentialPaths(resolved.auth.schemes),
  )
  const assignRequestId = requestIdStep(resolved)
  // As cookie-parser sets it: Express's `res.cookie(name, value, { signed: true })` signs with it.
  const secret = resolved.cookies.secrets[0]
  const overload =
    resolved.overload === undefined
      ? undefined
      : watchOverload(resolved.overload, logRequest.appLog)
  return markShapeguard(
    function shapeguard(req, res, next) {
      useDictionaryMode(req, res)
      installHelpers(res, resolved)
      if (secret !== undefined && (req as { secret?: unknown }).secret === undefined)
        (req as { secret?: unknown }).secret = secret
      const locals = req.app?.locals
      let proceed = next
      if (overload?.shedding && !isHealthRequest(req)) {
        // Refused before any other work, but with its request ID and its log line; the app's
        // first-request set-up waits for a request it serves.
        proceed = () => refuseOverloaded(res, overload)
      } else if (locals !== undefined && locals.shapeguard !== resolved) {
        // An app's first request: its routes are registered by now.
        locals.shapeguard = resolved
        installRequestLog(req, logRequest.appLog)
        // Inside the request's scope, so the warning goes through this app's backend.
        if (resolved.debug) {
          proceed = () => {
            warnHandlerOrder(req.app)
            warnUnknownSchemes(req.app, resolved)
            next()
          }
        }
      }
      try {
        assignRequestId(req, res)
      } catch (err) {
        // A broken custom generator: the request still gets an ID for its log line and its error.
        setRequestField(req, 'id', generateRequestId())
        logRequest(req, res, () => next(err))
        return
      }
      // The rest of the request runs in its scope: `logger` writes for it (logging/request-scope.ts).
      logRequest(req, res, proceed)
    } satisfies RequestHandler,
    resolved,
    config.response,
  )
}
