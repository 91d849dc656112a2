import { planRoute } from './plan.js'
import type { BodyOf, RouteDefinition, SchemaSlot } from './route-types.js'

/**
 * Declares a route once, for `validate()`/`handle()` and the OpenAPI generator: every field of
 * the route is kept as given (schemas, `transform`, `limits`, `allErrors`, `sanitize`, and any
 * documentation fields); `rateLimit` and `cache` are not implemented yet and throw. Schemas are checked and compiled here, so a bad
 * field throws at startup and the first request pays nothing.
 * @param definition the route's schemas and options
 * @example const createUser = defineRoute({ body: CreateUser, response: User, allErrors: true })
 */
export function defineRoute<
  B extends SchemaSlot = undefined,
  P extends SchemaSlot = undefined,
  Q extends SchemaSlot = undefined,
  H extends SchemaSlot = undefined,
  R extends SchemaSlot = undefined,
  T = BodyOf<B>,
>(definition: RouteDefinition<B, P, Q, H, R, T>): RouteDefinition<B, P, Q, H, R, T> {
  const route = Object.freeze({ ...definition })
  planRoute(route as never)
  return route
}
