import type { RequestHandler } from 'express'
import { optionError } from '../../shared/error-codes.js'
import { asyncHandler } from '../router/async-handler.js'
import type { RouteHandler } from './handler-types.js'
import { planRoute } from './plan.js'
import type { BodyOf, RouteDefinition, RouteSlots, SlotOf } from './route-types.js'
import { validate } from './validate.js'

/**
 * A guarded route in one call: `[validate(route), handler]`, spreadable into
 * the router. Inside the handler `req.body`, `req.params`, `req.query` (and declared headers) are
 * typed by the route's schemas, `res.ok({ data })` is checked against the response schema's input,
 * and a rejected promise reaches the error middleware.
 * @param route schemas and per-route options, e.g. `defineRoute()`'s result
 * @example app.post('/users', ...handle({ body: CreateUser, response: User }, async (req, res) => res.created({ data: await users.add(req.body) })))
 */
export function handle<S extends RouteSlots = {}, T = BodyOf<SlotOf<S, 'body'>>>(
  route: RouteDefinition<S, T>,
  handler: RouteHandler<S, T>,
): [validate: RequestHandler, handler: RequestHandler] {
  if (typeof handler !== 'function') {
    throw optionError(
      'SG_ERR_MISSING_OPTION',
      'shapeguard: handle(): needs a handler function, handle(route, handler)',
    )
  }
  // Checked here first, so that a mistake in the route names handle().
  planRoute(route as never, 'handle()')
  return [validate(route), asyncHandler(handler as never)]
}
