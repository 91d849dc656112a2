import type { Request, Router, RouterOptions } from 'express'
import express from 'express'
import { AppError } from './app-error.js'

/** `createRouter()` options: every option of the host's router, plus the router factory. */
export interface CreateRouterOptions extends RouterOptions {
  /** The host's `Router` factory. @default `Router` of the installed `express` package */
  Router?: (options?: RouterOptions) => Router
}

// The host's route object, reached only through the members both Express 4 and 5 have.
interface HostRoute {
  methods: Record<string, boolean | undefined>
  all(handler: (req: Request, res: unknown, next: (signal?: 'route') => void) => void): unknown
  _handles_method?: (method: string) => boolean
  _handlesMethod?: (method: string) => boolean
}

// Routes whose path matched the request but not its method, collected while the host router
// scans its stack; one slot per router invocation (saved and restored around nested routers).
const kMatched: unique symbol = Symbol('shapeguard.matchedRoutes') as never
type Tracked = Request & { [kMatched]?: HostRoute[] | undefined }

/**
 * A router of the host framework that answers 405 METHOD_NOT_ALLOWED, with an `Allow` header and
 * `details.allowed`, when a registered path is requested with a method it has no handler for.
 * HEAD is allowed wherever GET is; OPTIONS is answered by the host as usual.
 * @param options router options (`strict`, `mergeParams`, `caseSensitive`); default `{}`
 * @example const users = createRouter({ mergeParams: true }); users.get('/:id', getUser)
 */
export function createRouter(options: CreateRouterOptions = {}): Router {
  const { Router: makeRouter = express.Router, ...routerOptions } = options
  const router = makeRouter(routerOptions)
  const host = router as unknown as {
    route(path: unknown): HostRoute
    handle(req: Request, res: unknown, done: (err?: unknown) => void): void
  }

  // Every registration (get, post, all, route().get chains) goes through route(path).
  const route = host.route
  host.route = function (path) {
    const registered = route.call(this, path)
    watchMethods(registered)
    return registered
  }

  const handle = host.handle
  host.handle = function (req: Tracked, res, done) {
    const outer = req[kMatched]
    req[kMatched] = undefined
    // One closure per request, like the ones the host router allocates itself.
    handle.call(this, req, res, (err?: unknown) => {
      const matched = req[kMatched]
      req[kMatched] = outer
      if (err || matched === undefined || req.method === 'OPTIONS') return done(err)
      done(methodNotAllowed(req, res as { setHeader(name: string, value: string): void }, matched))
    })
  }
  return router
}

/**
 * Lets the host dispatch any method (but OPTIONS) into the route, where a first probe layer passes
 * handled methods on and records the route for the others. The host's own scan finds the route:
 * no per-request work grows with the number of routes.
 */
function watchMethods(route: HostRoute): void {
  const key = typeof route._handles_method === 'function' ? '_handles_method' : '_handlesMethod'
  const handles = route[key]
  if (typeof handles !== 'function') return
  route.all(function methodProbe(req: Tracked, _res, next) {
    if (handles.call(route, req.method)) return next()
    const matched = req[kMatched]
    if (matched === undefined) req[kMatched] = [route]
    else matched.push(route)
    next('route')
  })
  delete route.methods._all
  route[key] = function (method: string) {
    return method === 'OPTIONS' ? handles.call(this, method) : true
  }
}

function methodNotAllowed(
  req: Request,
  res: { setHeader(name: string, value: string): void },
  routes: HostRoute[],
): AppError<{ allowed: string[] }> {
  const allowed: string[] = []
  for (const route of routes) {
    for (const [method, on] of Object.entries(route.methods)) {
      const name = method.toUpperCase()
      if (on && method !== '_all' && !allowed.includes(name)) allowed.push(name)
    }
  }
  if (allowed.includes('GET') && !allowed.includes('HEAD')) {
    allowed.splice(allowed.indexOf('GET') + 1, 0, 'HEAD')
  }
  res.setHeader('Allow', allowed.join(', '))
  return new AppError(
    'METHOD_NOT_ALLOWED',
    `Method ${req.method} is not allowed on this route`,
    405,
    { allowed },
  )
}
