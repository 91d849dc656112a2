import type { Router, RouterOptions } from 'express'
import express from 'express'
import { checkOptions } from '../../shared/check-option.js'
import { dispatchThroughTable, type HostRouter } from './table-dispatch.js'
import { traceRoutes } from './trace-routes.js'

/** `createRouter()` options: every option of the host's router, plus the router factory. */
export interface CreateRouterOptions extends RouterOptions {
  /** The host's `Router` factory. @default `Router` of the installed `express` package */
  Router?: (options?: RouterOptions) => Router
}

/**
 * A router of the host framework that dispatches through a route table and knows which methods
 * each registered path has. A request visits only the layers that could match its path (static
 * and `:param` segments are looked up in O(path length); `use()` middleware and patterns the
 * table cannot read are visited in their place, as the host would), with the host's own matching,
 * parameters, `next('route')` and options. A request for one of its paths with a method it has no
 * handler for is not refused: the router records the allowed methods on the request and passes it
 * on, so a later router or app route for the same path still runs. When nothing handles it,
 * `notFoundHandler()` answers 405 METHOD_NOT_ALLOWED with an `Allow` header and `details.allowed`
 * instead of 404 (without `notFoundHandler()` the host's own 404 is sent). HEAD is allowed
 * wherever GET is; OPTIONS is answered by the host as usual. With OpenTelemetry, each route puts
 * its pattern on the request's span as `http.route`.
 * @param options router options (`strict`, `mergeParams`, `caseSensitive`); default `{}`
 * @example const users = createRouter({ mergeParams: true }); users.get('/:id', getUser)
 */
export function createRouter(options: CreateRouterOptions = {}): Router {
  checkOptions(options, ['Router', 'caseSensitive', 'mergeParams', 'strict'], 'createRouter()')
  const { Router: makeRouter = express.Router, ...routerOptions } = options
  const router = makeRouter(routerOptions)
  dispatchThroughTable(router as unknown as HostRouter, () => makeRouter() as never)
  traceRoutes(router as never)
  return router
}
