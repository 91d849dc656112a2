import { createHash } from 'node:crypto'
import type { Application, Request } from 'express'
import { ipKeyGenerator } from 'express-rate-limit'
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

/** The client a request counts for: `req.ip` (the host's trust-proxy setting decides), IPv6 by its /56. */
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

/** The default key: `<req.path>:<client>`. */
export function defaultKey(req: Request): string {
  return `${req.path}:${clientOf(req)}`
}

// A key longer than this is stored as its hash: a client choosing long paths must not choose how
// much memory (or Redis) each of its keys takes.
const MAX_KEY_LENGTH = 200

/**
 * A route's store keys: the route (method and pattern) and then the client's key, so that two
 * routes sharing a store never share a count. The prefix of the route and mount seen last is
 * kept, so a request builds one string, not three.
 */
export function routeKeys(): (req: Request, key: string) => string {
  let lastRoute: unknown
  let lastBase: string | undefined
  let lastMethod: string | undefined
  let prefix = ''
  return function routeKey(req, key) {
    const route: unknown = req.route
    const base = req.baseUrl
    const method = req.method
    if (route !== lastRoute || base !== lastBase || method !== lastMethod) {
      const pattern: unknown = (route as { path?: unknown } | undefined)?.path
      prefix = `${method === 'HEAD' ? 'GET' : method} ${base}${typeof pattern === 'string' ? pattern : String(pattern ?? '')}|`
      lastRoute = route
      lastBase = base
      lastMethod = method
    }
    const full = prefix + key
    return full.length <= MAX_KEY_LENGTH
      ? full
      : `#${createHash('sha256').update(full).digest('base64url')}`
  }
}

/** Forgets the once-per-process and once-per-app warnings (tests). */
export function resetProxyWarnings(): void {
  warnedForwarded = false
  lastApp = undefined
}
