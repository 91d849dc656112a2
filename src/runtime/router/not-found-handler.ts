import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { checkOptions, checkString } from '../../shared/check-option.js'
import { problemInstance } from '../../shared/problem-details.js'
import { raise } from '../core/app-error.js'
import { debugFromEnv } from '../core/config.js'
import { configOf } from '../core/context.js'
import { pathOf } from '../logging/request-log-state.js'
import { allowedMethods } from './allowed-methods.js'
import { routeMethods } from './route-methods.js'
import { markTerminal, warnHandlerOrder } from './warn-handler-order.js'

/** Options of `notFoundHandler()`. */
export interface NotFoundHandlerOptions {
  /** A fixed message for every 404 (a 405 keeps its own). @default `Cannot <METHOD> <path>` */
  message?: string
}

// The middleware `app.use(notFoundHandler)` (without the call) stands for, made on first use.
let uncalled: RequestHandler | undefined

/**
 * Answers every request that reached it with 404 NOT_FOUND, or with 405 METHOD_NOT_ALLOWED (header
 * `Allow`, `details.allowed`) when a route of the app (`app.get`, a router, a `createRouter()`) has its
 * path under other methods; mount
 * after your routes and before `errorHandler()`.
 * @param options default `{}`
 * @example app.use(notFoundHandler(), errorHandler())
 */
export function notFoundHandler(options?: NotFoundHandlerOptions): RequestHandler
export function notFoundHandler(
  options?: NotFoundHandlerOptions | Request,
  res?: Response,
  next?: NextFunction,
): RequestHandler | undefined {
  if (typeof next === 'function') {
    // Mounted without the call, app.use(notFoundHandler): Express calls the factory with the
    // request, and it answers as notFoundHandler() would.
    uncalled ??= notFoundHandler()
    uncalled(options as Request, res as Response, next)
    return undefined
  }
  const given = options === undefined ? {} : options
  checkOptions(given, ['message'], 'notFoundHandler()')
  const fixed = checkString((given as NotFoundHandlerOptions).message, 'notFoundHandler(): message')
  let first = true
  return markTerminal(
    function notFoundHandler(req, res, next) {
      if (first) {
        // Mounted before the routes, it answers every request: the first one says so.
        first = false
        if (configOf(req, res)?.debug ?? debugFromEnv()) warnHandlerOrder(req.app)
      }
      // What a createRouter noted on the way, else what the app's own routes have for the path.
      const allowed =
        req.method === 'OPTIONS'
          ? undefined
          : (allowedMethods(res) ?? routeMethods(req.app, req.method, pathOf(req) || '/'))
      if (allowed !== undefined) {
        res.setHeader('Allow', allowed.join(', '))
        return next(
          raise('METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed on this route`, {
            allowed,
          }),
        )
      }
      next(raise('NOT_FOUND', fixed ?? `Cannot ${req.method} ${echoed(req)}`))
    } satisfies RequestHandler,
    'notFoundHandler()',
  )
}
markTerminal(notFoundHandler, 'notFoundHandler()')

// The path as problem details' `instance` writes it (percent-encoded, no query string), and
// none that is not a path of this site: `//evil.example/…` reads as a link to another host.
function echoed(req: Request): string {
  return problemInstance(pathOf(req) || '/') ?? 'this path'
}
