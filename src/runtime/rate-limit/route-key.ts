import { createHash } from 'node:crypto'
import { METHODS } from 'node:http'
import type { Request } from 'express'
import { routeOf } from '../core/route-mark.js'
import { middlewareOf, routePatternOf } from '../host/route-pattern.js'
import type { HostLayer } from '../host/router-stack.js'

// A key longer than this is stored as its hash: a client choosing long keys (through a
// keyGenerator that reads the request) must not choose how much memory (or Redis) each one takes.
const MAX_KEY_LENGTH = 200

// Numbers the limits, for one found in no layer of its app (its middleware called by another).
let limits = 0

/**
 * A limit's store keys: where the limit is registered, then the key (the client, or what
 * keyGenerator returned). On a route: the methods it holds this limit for, its mount paths and
 * pattern (`POST /v1/login`); given to `use()`: `*` (every method is one count) and the path it is
 * mounted at (`* /login`, `* /login#2` for a second limit there). So every spelling Express routes
 * to the limit shares one count, and two limits sharing a store never share one. Nothing of the
 * request is in it. Found once per route and app; the prefix of the route and app seen last is
 * kept, so a request builds one string.
 * @param options the limit's options, as its middleware holds them (how its layers are found)
 */
export function routeKeys(options: object): (req: Request, key: string) => string {
  const fallback = `* #${++limits}`
  const mounts = new WeakMap<object, string>()
  let prevRoute: unknown
  let prevApp: unknown
  let prefix: string | undefined
  return function routeKey(req, key) {
    const route: unknown = req.route
    const app: unknown = req.app
    if (prefix === undefined || route !== prevRoute || app !== prevApp) {
      const methods = methodsOf(route, options)
      prefix = `${methods === undefined ? mountOf(app) : `${methods} ${routePatternOf(req)}`}|`
      prevRoute = route
      prevApp = app
    }
    const full = prefix + key
    return full.length <= MAX_KEY_LENGTH
      ? full
      : `#${createHash('sha256').update(full).digest('base64url')}`
  }

  /** `* <mount path>` of the limit given to use() in this app, found once per app. */
  function mountOf(app: unknown): string {
    if ((typeof app !== 'function' && typeof app !== 'object') || app === null) return fallback
    let mount = mounts.get(app)
    if (mount === undefined) {
      const path = pathOf(app, options)
      mount = path === undefined ? fallback : `* ${path}`
      mounts.set(app, mount)
    }
    return mount
  }
}

/**
 * The path of the first middleware of the app that holds this limit, with `#2`, `#3`… when other
 * limits are mounted at the same path before it (each counts on its own), or undefined.
 */
function pathOf(app: unknown, options: object): string | undefined {
  const before = new Map<string, Set<object>>()
  for (const [path, handle] of middlewareOf(app)) {
    const limit = routeOf(handle)?.rateLimit
    if (typeof limit !== 'object' || limit === null) continue
    const others = before.get(path) ?? new Set()
    if (limit === options) return others.size === 0 ? path : `${path}#${others.size + 1}`
    before.set(path, others.add(limit))
  }
  return undefined
}

/**
 * The methods the route holds this limit for, in registration order (`GET`, `GET,POST` when one
 * validate() serves both), `ALL` for all() or every method (app.all() registers each one), so
 * every method that reaches the same limit shares its count; undefined when the route does not
 * hold it (no route: a limit given to use(), which Express 4 and 5 also run with the `req.route`
 * of a route that called next()).
 */
function methodsOf(route: unknown, options: object): string | undefined {
  const names: string[] = []
  const stack = (route as { stack?: unknown } | null | undefined)?.stack
  for (const layer of Array.isArray(stack) ? (stack as HostLayer[]) : []) {
    if (routeOf(layer.handle)?.rateLimit !== options) continue
    if (typeof layer.method !== 'string') return 'ALL'
    const name = layer.method.toUpperCase()
    if (!names.includes(name)) names.push(name)
  }
  if (names.length >= METHODS.length) return 'ALL'
  return names.length > 0 ? names.join(',') : undefined
}
