import type { Request, Response, Router, RouterOptions } from 'express'
import express from 'express'
import { recordAllowedMethods } from './allowed-methods.js'
import { dispatchThroughTable } from './table-dispatch.js'

/** `createRouter()` options: every option of the host's router, plus the router factory. */
export interface CreateRouterOptions extends RouterOptions {
  /** The host's `Router` factory. @default `Router` of the installed `express` package */
  Router?: (options?: RouterOptions) => Router
}

// The host's route object, reached only through the members both Express 4 and 5 have.
interface HostRoute {
  methods: Record<string, boolean | undefined>
  all(handler: (req: Request, res: unknown, next: (signal?: 'route') => void) => void): unknown
  _handles_method?: (method: string) => boolean
  _handlesMethod?: (method: string) => boolean
}

/**
 * A router of the host framework that knows which methods each registered path has. A request for
 * one of its paths with a method it has no handler for is not refused: the router records the
 * allowed methods on the request and passes it on, so a later router or app route for the same
 * path still runs. When nothing handles it, `notFoundHandler()` answers 405 METHOD_NOT_ALLOWED with
 * an `Allow` header and `details.allowed` instead of 404 (without `notFoundHandler()` the host's own
 * 404 is sent). HEAD is allowed wherever GET is; OPTIONS is answered by the host as usual.
 * @param options router options (`strict`, `mergeParams`, `caseSensitive`); default `{}`
 * @example const users = createRouter({ mergeParams: true }); users.get('/:id', getUser)
 */
export function createRouter(options: CreateRouterOptions = {}): Router {
  const { Router: makeRouter = express.Router, ...routerOptions } = options
  const router = makeRouter(routerOptions)
  const host = router as unknown as { route(path: unknown): HostRoute }

  // Every registration (get, post, all, route().get chains) goes through route(path).
  const route = host.route
  host.route = function (path) {
    const registered = route.call(this, path)
    watchMethods(registered)
    return registered
  }
  dispatchThroughTable(router as never, () => makeRouter(routerOptions) as never)
  return router
}

/**
 * Lets the host dispatch any method (but OPTIONS) into the route, where a first probe layer passes
 * handled methods on untouched and, for the others, notes the route's method table in the request context
 * and skips the route. The host's own scan finds the route: no per-request work grows with the
 * number of routes, and a request that some route handles allocates nothing (one table is stored
 * as is; the method names are built only by `notFoundHandler()`).
 */
function watchMethods(route: HostRoute): void {
  const key = typeof route._handles_method === 'function' ? '_handles_method' : '_handlesMethod'
  const handles = route[key]
  if (typeof handles !== 'function') return
  route.all(function methodProbe(req, res, next) {
    if (handles.call(route, req.method)) return next()
    recordAllowedMethods(res as Response, route.methods)
    next('route')
  })
  delete route.methods._all
  route[key] = function (method: string) {
    return method === 'OPTIONS' ? handles.call(this, method) : true
  }
}
