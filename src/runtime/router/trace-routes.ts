import type { Request } from 'express'
import { traceRoute } from '../telemetry/spans.js'

type Handle = (req: Request, res: unknown, next: unknown) => unknown

/** The members of an Express 4 or 5 router read here. */
interface RouteSource {
  stack: unknown[]
  route(path: unknown): unknown
}

/**
 * Makes each route registered on `router` put its pattern on the request's OpenTelemetry span
 * (`http.route`) when a request enters it: `route()`, which `get()`, `post()` and the others
 * call, wraps the new route layer's `handle`. The host calls it only once the route matched
 * the path and handles the method; with no span (or no `@opentelemetry/api`) the wrapper costs
 * one call.
 */
export function traceRoutes(router: RouteSource): void {
  const hostRoute = router.route
  router.route = function route(this: RouteSource, path: unknown) {
    const created = hostRoute.call(this, path)
    const layer = this.stack[this.stack.length - 1] as { route?: unknown; handle?: unknown }
    const dispatch = layer?.handle
    if (layer?.route === created && typeof created === 'object' && typeof dispatch === 'function') {
      // Three parameters, as the host's own: it tells request handlers from error handlers so.
      layer.handle = function traced(req: Request, res: unknown, next: unknown) {
        traceRoute(req, created as object)
        return (dispatch as Handle)(req, res, next)
      }
    }
    return created
  }
}
