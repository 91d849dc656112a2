import { compileRoute } from './compile-route.js'
import type { RouteDefinition } from './route-types.js'

/**
 * Declares a route once, for `validate()`/`handle()` and the OpenAPI generator: every field of
 * SPEC.md 2.4 is kept as given (schemas, `transform`, `rateLimit`, `cache`, `limits`, `allErrors`,
 * `sanitize`, and any documentation fields). Schemas are checked and compiled here, so a bad
 * field throws at startup and the first request pays nothing.
 * @param definition the route's schemas and options
 * @example const createUser = defineRoute({ body: CreateUser, response: User, allErrors: true })
 */
export function defineRoute<
  B = undefined,
  P = undefined,
  Q = undefined,
  H = undefined,
  R = undefined,
>(definition: RouteDefinition<B, P, Q, H, R>): RouteDefinition<B, P, Q, H, R> {
  const route = Object.freeze({ ...definition })
  compileRoute(route as never)
  return route
}
