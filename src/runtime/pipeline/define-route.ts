import { checkRoute, planRoute } from './plan.js'
import type { BodyOf, RouteDefinition, SchemaSlot } from './route-types.js'

/**
 * Declares a route once, for `validate()`/`handle()` and the OpenAPI generator: every field of
 * the route is kept as given (schemas, `transform`, `rateLimit`, `cache`, `limits`, `allErrors`,
 * `sanitize`, and the documentation fields). Schemas and options are checked and compiled here, so
 * a bad or misspelt field throws at startup and the first request pays nothing.
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
  // The definition itself first: a schema given for it loses what makes it one when copied.
  checkRoute(definition, 'defineRoute()')
  const route = Object.freeze({ ...definition })
  planRoute(route as never, 'defineRoute()')
  return route
}
