import { createHash } from 'node:crypto'
import { METHODS } from 'node:http'
import type { Application, Request } from 'express'
import { ipKeyGenerator } from 'express-rate-limit'
import { logger } from '../logging/logger.js'
import { routeOf } from '../pipeline/route-mark.js'
import type { HostLayer } from '../router/discover-routes.js'
import { routePatternOf } from '../router/route-pattern.js'

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

/**
 * A route's store keys: the route as registered (the methods it holds this limit for, its mount
 * paths and pattern: `POST /v1/login`), then the key (the client, or what keyGenerator returned),
 * so every spelling Express routes to the route shares one count and two routes sharing a store
 * never share one. Nothing of the request's path is in it. The prefix of the route, app and
 * method seen last is kept, so a request builds one string.
 * @param options the limit's options, as the route holds them (how its layers are told apart)
 */
export function routeKeys(options: object): (req: Request, key: string) => string {
  let prevRoute: unknown
  let prevApp: unknown
  let prevMethod: unknown
  let prefix = ''
  return function routeKey(req, key) {
    const route: unknown = req.route
    const app: unknown = req.app
    const method: unknown = req.method
    if (route !== prevRoute || app !== prevApp || method !== prevMethod) {
      // Without a route (a limit given to use()), every path of the middleware is one.
      prefix = `${methodsOf(route, options, method)} ${routePatternOf(req) ?? '*'}|`
      prevRoute = route
      prevApp = app
      prevMethod = method
    }
    const full = prefix + key
    return full.length <= MAX_KEY_LENGTH
      ? full
      : `#${createHash('sha256').update(full).digest('base64url')}`
  }
}

/**
 * The methods the route holds this limit for, in registration order (`GET`, `GET,POST` when one
 * validate() serves both), `ALL` for all() or every method (app.all() registers each one), so
 * every method that reaches the same limit shares its count. A limit the route does not hold
 * (given to use()) counts by the request's method, HEAD as GET.
 */
function methodsOf(route: unknown, options: object, method: unknown): string {
  const names: string[] = []
  const stack = (route as { stack?: unknown } | null | undefined)?.stack
  for (const layer of Array.isArray(stack) ? (stack as HostLayer[]) : []) {
    if (routeOf(layer.handle)?.rateLimit !== options) continue
    if (typeof layer.method !== 'string') return 'ALL'
    const name = layer.method.toUpperCase()
    if (!names.includes(name)) names.push(name)
  }
  if (names.length >= METHODS.length) return 'ALL'
  if (names.length > 0) return names.join(',')
  return method === 'HEAD' ? 'GET' : String(method)
}

/** Forgets the once-per-process and once-per-app warnings (tests). */
export function resetProxyWarnings(): void {
  warnedForwarded = false
  lastApp = undefined
}
