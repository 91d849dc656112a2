import { createHash } from 'node:crypto'
import { METHODS } from 'node:http'
import type { Application, Request } from 'express'
import { ipKeyGenerator } from 'express-rate-limit'
import { routeOf } from '../core/route-mark.js'
import { middlewareOf, routePatternOf } from '../host/route-pattern.js'
import type { HostLayer } from '../host/router-stack.js'
import { logger } from '../logging/logger.js'

let warnedForwarded = false
const checkedApps = new WeakSet<Application>()
// The app checked last: the per-app check costs one comparison per request, not a WeakSet lookup.
let lastApp: Application | undefined

/**
 * Warns once, as express-rate-limit does, about a proxy setting that breaks per-client limits:
 * `X-Forwarded-For` arriving while `trust proxy` is off (every client behind the proxy is one
 * client; once per process), and `trust proxy` set to `true` (any client picks its own address;
 * once per app).
 */
function warnAboutProxy(req: Request, app: Application, trust: unknown): void {
  if (!warnedForwarded && trust === false && req.headers['x-forwarded-for'] !== undefined) {
    warnedForwarded = true
    logger.warn(
      "shapeguard rateLimit: requests carry X-Forwarded-For but the app's 'trust proxy' setting is off, so all clients behind the proxy share one limit; set app.set('trust proxy', <number of proxies>)",
    )
  }
  if (app === lastApp) return
  lastApp = app
  if (checkedApps.has(app)) return
  checkedApps.add(app)
  if (trust === true) {
    logger.warn(
      "shapeguard rateLimit: the app's 'trust proxy' setting is true, so any client can choose the address it is limited by (X-Forwarded-For); set it to the number of proxies in front of the app",
    )
  }
}

/**
 * The client a request counts for, the default key: `req.ip` (the host's trust-proxy setting
 * decides), IPv6 by its /56.
 */
export function clientOf(req: Request): string {
  const app = req.app as Application | undefined
  // What app.get('trust proxy') answers (sub-apps inherit settings through the prototype), read
  // without the call: this runs on every limited request.
  const trust: unknown = app?.settings?.['trust proxy']
  if (app !== undefined) warnAboutProxy(req, app, trust)
  // With 'trust proxy' off, req.ip is the socket's address; reading it there skips parsing
  // X-Forwarded-For on every request only to ignore it.
  const ip = trust === false || trust === undefined ? req.socket?.remoteAddress : req.ip
  if (ip === undefined || ip === '') return 'unknown'
  // Only an address with a colon can be IPv6 (node's isIPv6 is a long regex).
  return ip.includes(':') ? ipKeyGenerator(ip, 56) : ip
}

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

/** Forgets the once-per-process and once-per-app warnings (tests). */
export function resetProxyWarnings(): void {
  warnedForwarded = false
  lastApp = undefined
}
