import { createHash } from 'node:crypto'
import { METHODS } from 'node:http'
import type { Request } from 'express'
import { routeOf } from '../core/route-mark.js'
import { middlewareOf, routePatternOf } from '../host/route-pattern.js'
import type { HostLayer } from '../host/router-stack.js'
import { appNumber, claimPlace } from './key-owners.js'
import type { RateLimitOptions } from './types.js'

// A key longer than this is stored as its hash: a client choosing long keys (through a
// keyGenerator that reads the request) must not choose how much memory (or Redis) each one takes.
const MAX_KEY_LENGTH = 200

// Numbers the limits, for one found in no layer of its app (its middleware called by another).
let limits = 0

/**
 * A limit's store keys: where the limit is registered, then the key (the client, or what
 * keyGenerator returned). On a route: the methods it holds this limit for, its mount paths and
 * pattern (`POST /v1/login`, `POST /v1/login#2` for a second limit there for the same methods);
 * given to `use()`: `*` (every method is one count) and the path it is mounted at (`* /login`,
 * `* /login#2` for a second limit there). So every spelling Express routes to the limit shares one
 * count, and two limits of one app sharing a store never share one; the memory store also keeps
 * apart two apps one limit serves. Nothing of the request is in it. Found once per route and app;
 * the prefix of the route and app seen last is kept, so a request builds one string.
 * @param options the limit's options, as its middleware holds them (how its layers are found)
 */
export function routeKeys(options: RateLimitOptions): (req: Request, key: string) => string {
  const fallback = `* #${++limits}`
  const store: unknown = options.store
  const mounts = new WeakMap<object, string>()
  // This limit in each app it serves, as the owner of its places in a shared store.
  const owners = new WeakMap<object, object>()
  const noApp = {}
  let prevRoute: unknown
  let prevApp: unknown
  let prefix: string | undefined
  return function routeKey(req, key) {
    const route: unknown = req.route
    const app: unknown = req.app
    if (prefix === undefined || route !== prevRoute || app !== prevApp) {
      const place = placeOf(route, app, req)
      // A store of the user's: the place alone, the same in every process. The memory store is
      // this process's own, where the app's number keeps apart two apps this limit serves.
      if (typeof store === 'object' && store !== null) claimPlace(store, place, ownerIn(app))
      prefix = `${store === undefined ? `${appNumber(app)} ` : ''}${place}|`
      prevRoute = route
      prevApp = app
    }
    const full = prefix + key
    return full.length <= MAX_KEY_LENGTH
      ? full
      : `#${createHash('sha256').update(full).digest('base64url')}`
  }

  function placeOf(route: unknown, app: unknown, req: Request): string {
    const methods = methodsOf(route, options)
    if (methods === undefined) return mountOf(app)
    const [names, nth] = methods
    return `${names} ${routePatternOf(req)}${nth > 1 ? `#${nth}` : ''}`
  }

  function ownerIn(app: unknown): object {
    if ((typeof app !== 'function' && typeof app !== 'object') || app === null) return noApp
    const owner = owners.get(app) ?? {}
    owners.set(app, owner)
    return owner
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
 * every method that reaches the same limit shares its count, and which limit it is of those the
 * route holds for the same methods (2 for a second one); undefined when the route does not hold
 * it (no route: a limit given to use(), which Express 4 and 5 also run with the `req.route` of a
 * route that called next()).
 */
function methodsOf(route: unknown, options: object): [methods: string, nth: number] | undefined {
  // Every limit of the route, in the order of its first layer, with the methods it is held for.
  const limits = new Map<object, string[] | 'ALL'>()
  const stack = (route as { stack?: unknown } | null | undefined)?.stack
  for (const layer of Array.isArray(stack) ? (stack as HostLayer[]) : []) {
    const limit = routeOf(layer.handle)?.rateLimit
    if (typeof limit !== 'object' || limit === null) continue
    const names = limits.get(limit) ?? []
    if (names === 'ALL' || typeof layer.method !== 'string') {
      limits.set(limit, 'ALL')
      continue
    }
    const name = layer.method.toUpperCase()
    if (!names.includes(name)) names.push(name)
    limits.set(limit, names)
  }
  const mine = limits.get(options)
  if (mine === undefined) return undefined
  const methods = methodsText(mine)
  let nth = 1
  for (const [limit, names] of limits) {
    if (limit === options) break
    if (methodsText(names) === methods) nth++
  }
  return [methods, nth]
}

const methodsText = (names: string[] | 'ALL') =>
  names === 'ALL' || names.length >= METHODS.length ? 'ALL' : names.join(',')
