import { checkRoute, planRoute } from './plan.js'
import type { BodyOf, RouteDefinition, RouteOptions, RouteSlots, SlotOf } from './route-types.js'

/**
 * Declares a route once, for `validate()`/`handle()` and the OpenAPI generator: every field of
 * the route is kept as given (schemas, `transform`, `rateLimit`, `cache`, `limits`, `allErrors`,
 * `sanitize`, and the documentation fields). Schemas and options are checked and compiled here, so
 * a bad or misspelt field throws at startup and the first request pays nothing. The route keeps its
 * schemas' types: `RouteHandler<typeof route>` types a handler written apart.
 * @param definition the route's schemas and options
 * @example const createUser = defineRoute({ body: CreateUser, response: User, allErrors: true })
 */
export function defineRoute<S extends RouteSlots = {}, T = BodyOf<SlotOf<S, 'body'>>>(
  definition: RouteDefinition<S, T>,
): S & RouteOptions<S, T> {
  // The definition itself first: a schema given for it loses what makes it one when copied.
  checkRoute(definition, 'defineRoute()')
  const route = Object.freeze({ ...definition }) as S & RouteOptions<S, T>
  planRoute(route as never, 'defineRoute()')
  return route
}
