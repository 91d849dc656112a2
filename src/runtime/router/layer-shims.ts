import type { Response } from 'express'
import { recordAllowedMethods } from './allowed-methods.js'

// Layers that createRouter puts into the list the host dispatches, made from a layer of the
// host's own make (a `use()` layer, which matches every path) with some members replaced. The
// host treats them as middleware without a path: it sets `req.params` to `{}` before calling them
// (the next layer sets its own, and the router restores the caller's when it is done) and calls
// them with or without a pending error; they pass on exactly what they received.

type Next = (err?: unknown) => void
type Req = { url?: string; method?: string }

/** A route layer of Express 4 or 5: its pattern and its route. */
export interface RouteLayer {
  match(path: string): unknown
  route: {
    methods: Record<string, boolean | undefined>
    _handles_method?: (method: string) => boolean
    _handlesMethod?: (method: string) => boolean
  }
}

/** A shim layer; `run` is what it does (with or without a pending error) before passing on. */
export interface Shim {
  run(req: Req, res: unknown): void
}

/** The prototypes of both kinds of shims, made once per router from the host's layer. */
export interface ShimKit {
  readonly guard: object
  readonly recorder: object
}

/** A host router, as far as making a `use()` layer goes. */
export interface LayerSource {
  stack: unknown[]
  use(fn: (req: unknown, res: unknown, next: () => void) => void): unknown
}

export function makeShimKit(makeRouter: () => LayerSource): ShimKit {
  const probe = makeRouter()
  probe.use(function shapeguardRouter(_req, _res, next) {
    next()
  })
  const base = probe.stack[0] as { match(path: string): unknown }
  const shim = Object.create(base) as Record<string, unknown>
  function request(this: Shim, req: Req, res: unknown, next: Next): void {
    this.run(req, res)
    next()
  }
  function error(this: Shim, err: unknown, _req: Req, _res: unknown, next: Next): void {
    next(err)
  }
  // Express 4's Layer method names, then Express 5's (router 2).
  shim.handle_request = shim.handleRequest = request
  shim.handle_error = shim.handleError = error
  const guard = Object.create(shim) as Record<string, unknown>
  // A guard checks on the error path too: an error handler may rewrite the URL and recover.
  guard.handle_error = guard.handleError = function (
    this: Shim,
    err: unknown,
    req: Req,
    res: unknown,
    next: Next,
  ) {
    this.run(req, res)
    next(err)
  }
  const recorder = Object.create(shim) as Record<string, unknown>
  const baseMatch = base.match
  // The recorder stands right after its route and matches where the route does (never throwing:
  // the route's own match already reported a bad parameter), without any parameters.
  recorder.match = function (this: { target: RouteLayer }, path: string) {
    let hit: unknown
    try {
      hit = this.target.match(path)
    } catch {
      return false
    }
    return hit ? baseMatch.call(this, path) : false
  }
  recorder.run = function (this: { target: RouteLayer }, req: Req, res: unknown) {
    const method = req.method
    if (method === 'OPTIONS' || method === undefined) return
    const route = this.target.route
    const handles = route._handles_method ?? route._handlesMethod
    if (handles !== undefined && !handles.call(route, method))
      recordAllowedMethods(res as Response, route.methods)
  }
  return { guard, recorder }
}

/** The recorder of a route layer: notes the route's methods when its path matched but not its method. */
export function makeRecorder(kit: ShimKit, target: RouteLayer): Shim & { target: RouteLayer } {
  const recorder = Object.create(kit.recorder) as Shim & { target: RouteLayer }
  recorder.target = target
  return recorder
}
