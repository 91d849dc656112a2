import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { asError } from '../core/app-error.js'
import type { ResolvedConfig } from '../core/config.js'
import { configOf, contextOf, peekContext } from '../core/context.js'
import { coverage } from '../core/coverage-probe.js'
import { useDictionaryMode } from '../core/dictionary-mode.js'
import { markRoute } from '../core/route-mark.js'
import type { Step } from '../core/step.js'
import { handlerTimer } from '../lifecycle/handler-timeout.js'
import { overtaken } from '../lifecycle/overtake.js'
import { runInTraceContext } from '../logging/request-scope.js'
import { resolveConfig } from '../middleware/resolve-config.js'
import { installHelpers } from '../response/helpers.js'
import { warnHandlerOrder } from '../router/warn-handler-order.js'
import { traceRoute } from '../telemetry/spans.js'
import { declaredCodes } from './declared-errors.js'
import { planRoute, type RoutePlan } from './plan.js'
import type { BodyOf, RouteDefinition, RouteSlots, SlotOf } from './route-types.js'

/** The options of `validate()`: a route (`defineRoute()`'s result) or its fields inline. */
export type ValidateOptions<S extends RouteSlots = RouteSlots, T = unknown> = RouteDefinition<S, T>

let fallback: ResolvedConfig | undefined

// A route used without shapeguard() still validates and still has `res.ok` and the other
// helpers, with the defaults resolved on first use (never at import: `debug` follows NODE_ENV as
// it is when requests arrive). With shapeguard() mounted the configuration is already there.
function requestConfig(req: Request, res: Response): ResolvedConfig {
  const config = peekContext(res)?.config
  if (config !== undefined) return config
  // The first guarded step of a request shapeguard() did not see: the one switch it would make.
  useDictionaryMode(req, res)
  let resolved = configOf(req, res)
  if (resolved === undefined) {
    if (fallback === undefined) {
      fallback = resolveConfig({})
      // The first guarded request of a process without shapeguard(): its routes are registered.
      if (fallback.debug) warnHandlerOrder(req.app)
    }
    resolved = fallback
  }
  installHelpers(res, resolved)
  return resolved
}

function run(
  steps: readonly Step[],
  from: number,
  req: Request,
  res: Response,
  config: ResolvedConfig,
): Promise<void> | undefined {
  for (let i = from; i < steps.length; i++) {
    const pending = steps[i]!(req, res, config)
    if (pending !== undefined) return pending.then(() => run(steps, i + 1, req, res, config))
  }
  return undefined
}

// After a timeout's answer, a late failure goes nowhere (one line says so).
function forward(res: Response, next: NextFunction, err: unknown): void {
  if (!overtaken(res)) next(asError(err))
}

function pass(plan: RoutePlan, res: Response, next: NextFunction, config: ResolvedConfig): void {
  if (plan.streams !== undefined) {
    // A stream's failure after its first byte goes to the error middleware through `next`.
    const context = contextOf(res)
    context.streams = plan.streams
    context.next = next
  }
  if (plan.stripper !== undefined) {
    const context = contextOf(res)
    context.stripper = plan.stripper
    context.next = next
  } else if (!plan.schemaWarning && config.warnings.missingResponseSchema) {
    // Only where the warning could fire (development): production writes nothing here.
    contextOf(res).schemaWarning = false
  }
  next()
}

/**
 * Guards and validates a route's requests: pre-parse guards, then body, params,
 * query and headers against their schemas, then `transform`. Validated, stripped values replace
 * `req.body`, `req.params`, `req.query` and the declared `req.headers`; a failure is a 422
 * VALIDATION_ERROR passed to the error middleware. With a `response` (or `sends`) schema, the
 * success helpers strip their data through it. Everything is compiled when `validate()` is called.
 * @param route schemas (zod, adapters or Standard Schema) and per-route options
 * @example app.post('/users', validate({ body: CreateUser, response: User }), createUser)
 */
export function validate<S extends RouteSlots = {}, T = BodyOf<SlotOf<S, 'body'>>>(
  route: ValidateOptions<S, T>,
): RequestHandler {
  const plan = planRoute(route as never)
  const steps = plan.steps
  const startTimeout = handlerTimer(plan.timeout)
  // The route stays readable on the middleware (generateOpenAPI({ app }), fuzzRoutes).
  function guard(req: Request, res: Response, routeNext: NextFunction): void {
    traceRoute(req)
    const probe = coverage.probe
    const next = probe === undefined ? routeNext : probe.enter(route, req, res, routeNext)
    const config = requestConfig(req, res)
    // Before the first step: the timeout covers async validation, `transform` and the handler.
    startTimeout(res, config)
    // For errorHandler()'s warning of an error the route does not declare: development only.
    if (config.debug)
      contextOf(res).declared = declaredCodes(route as never, plan.codes, req.method, config)
    let pending: Promise<void> | undefined
    try {
      pending = run(steps, 0, req, res, config)
    } catch (err) {
      forward(res, next, err)
      return
    }
    if (pending === undefined) pass(plan, res, next, config)
    else
      pending.then(
        // Answered meanwhile (a timeout of the app's own): the handler must not run after it.
        () => (res.headersSent ? undefined : pass(plan, res, next, config)),
        (err: unknown) => forward(res, next, err),
      )
  }
  return markRoute(
    function validate(req, res, next) {
      // The first guarded route of a request shapeguard() did not see runs the rest of it with
      // its traceparent header's IDs for `logger`, as shapeguard() would.
      if (peekContext(res)?.config === undefined) runInTraceContext(guard, req, res, next)
      else guard(req, res, next)
    } satisfies RequestHandler,
    route as never,
  )
}
