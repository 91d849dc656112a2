import type { Application, Request } from 'express'
import { logger } from '../logging/logger.js'
import { clientAddress } from './client-address.js'

/** The one client every request without an IP address counts as. */
export const UNKNOWN_CLIENT = 'unknown'

let warnedForwarded = false
let warnedUnparseable = false
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
 * decides) as `clientAddress` spells it; a request without an IP address there counts as the one
 * shared client `unknown`.
 */
export function clientOf(req: Request): string {
  const app = req.app as Application | undefined
  // What app.get('trust proxy') answers (sub-apps inherit settings through the prototype), read
  // without the call: this runs on every limited request.
  const trust: unknown = app?.settings?.['trust proxy']
  if (app !== undefined) warnAboutProxy(req, app, trust)
  // With 'trust proxy' off, req.ip is the socket's address; reading it there skips parsing
  // X-Forwarded-For on every request only to ignore it.
  const ip: unknown = trust === false || trust === undefined ? req.socket?.remoteAddress : req.ip
  // No address at all: the socket has closed, nothing to warn about.
  if (ip === undefined) return UNKNOWN_CLIENT
  const client = typeof ip === 'string' ? clientAddress(ip) : undefined
  if (client !== undefined) return client
  if (!warnedUnparseable) {
    warnedUnparseable = true
    // Never the value: it is the client's own text.
    logger.warn(
      "shapeguard rateLimit: a request's address (req.ip) is not an IP address, so it counts as the one client 'unknown' that every such request shares (logged once); check what the proxies in front of the app write in X-Forwarded-For and the app's 'trust proxy' setting",
    )
  }
  return UNKNOWN_CLIENT
}

/** Forgets the once-per-process and once-per-app warnings (tests). */
export function resetProxyWarnings(): void {
  warnedForwarded = false
  warnedUnparseable = false
  lastApp = undefined
}
