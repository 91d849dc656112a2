import type { RequestHandler } from 'express'
import { requestLogger } from './logging/request-logger.js'
import { type ResolvedConfig, resolveConfig, type ShapeguardConfig } from './resolve-config.js'
import { installHelpers } from './response-helpers.js'

/** What `shapeguard()` leaves on `app.locals.shapeguard` for errorHandler and other middleware. */
export type ShapeguardLocals = ResolvedConfig

/**
 * The main middleware: mount once, before your routes. Resolves the configuration once, puts the
 * response helpers (`res.ok`, `res.fail`, …) on every response and makes the configuration
 * reachable from that request only, so two apps in one process never share it.
 * @param config see SPEC.md 4.6; default `{}`
 * @example app.use(shapeguard({ response: { statusCodes: { POST: 200 } } }))
 */
export function shapeguard(config: ShapeguardConfig = {}): RequestHandler {
  const resolved = resolveConfig(config)
  // Mounted after the request ID step (it reads `req.id`); it calls `next` itself.
  const logRequest = requestLogger(config.logger, resolved.debug)
  // The request pipeline (request id, guards) and the request logger hook in here, each as a
  // step precomputed from `resolved`; a disabled step is not tested per request.
  return function shapeguard(req, res, next) {
    installHelpers(res, resolved)
    const locals = req.app?.locals
    if (locals !== undefined && locals.shapeguard !== resolved) locals.shapeguard = resolved
    logRequest(req, res, next)
  }
}
