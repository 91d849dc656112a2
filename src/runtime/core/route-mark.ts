import type { AnyRoute } from '../pipeline/route-types.js'

/**
 * The key under which a `validate()` middleware carries the route it was made from, so the routes
 * of an app can be found again (OpenAPI, fuzzing). `Symbol.for`: two copies of the package agree.
 */
export const kRoute: unique symbol = Symbol.for('shapeguard.route') as never

/** Sets the route on a middleware as a non-enumerable, read-only property; returns the middleware. */
export function markRoute<F extends object>(middleware: F, route: AnyRoute): F {
  Object.defineProperty(middleware, kRoute, { value: route, enumerable: false })
  return middleware
}

/** The route a `validate()` middleware was made from, or undefined for any other value. */
export function routeOf(middleware: unknown): AnyRoute | undefined {
  if (typeof middleware !== 'function') return undefined
  const route = (middleware as { [kRoute]?: unknown })[kRoute]
  return typeof route === 'object' && route !== null ? (route as AnyRoute) : undefined
}
