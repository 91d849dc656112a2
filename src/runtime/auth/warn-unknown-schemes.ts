import { checkSecurity } from '../../shared/resolve-schemes.js'
import type { ResolvedConfig } from '../core/config.js'
import { routeOf, shapeguardMarkOf } from '../core/route-mark.js'
import { type HostLayer, maxDepth, mountPaths, stackOf } from '../host/router-stack.js'
import { logger } from '../logging/logger.js'

type Schemes = ResolvedConfig['auth']['schemes']

const checked = new WeakSet<object>()

/**
 * Logs one error line per route of the app whose `security` names a scheme its `shapeguard()`
 * does not declare (a route is defined before its app's `auth` is known): each request of such a
 * route is answered 500. Called at the app's first request in development; walks the app once,
 * later calls for it return at once. A router's own `shapeguard()` declares the schemes of the
 * routes after it.
 * @param app the request's app (`req.app`)
 * @example if (config.debug) warnUnknownSchemes(req.app, config)
 */
export function warnUnknownSchemes(app: unknown, config: ResolvedConfig): void {
  if ((typeof app !== 'function' && typeof app !== 'object') || app === null) return
  if (checked.has(app)) return
  checked.add(app)
  const stack = stackOf(app)
  if (stack !== undefined) walk(stack, '', 0, config.auth.schemes, new Set())
}

function walk(
  stack: readonly HostLayer[],
  prefix: string,
  depth: number,
  schemes: Schemes,
  seen: Set<object>,
): void {
  if (depth > maxDepth || seen.has(stack)) return
  seen.add(stack)
  for (const layer of stack) {
    const mark = shapeguardMarkOf(layer.handle)
    if (mark !== undefined) schemes = mark.config.auth.schemes
    else if (layer.route !== undefined) checkRoute(layer.route, prefix, schemes)
    else {
      const inner = (layer.handle as { stack?: unknown } | undefined)?.stack
      if (Array.isArray(inner))
        walk(inner, prefix + (mountPaths(layer)?.[0] ?? ''), depth + 1, schemes, seen)
    }
  }
}

function checkRoute(route: NonNullable<HostLayer['route']>, prefix: string, schemes: Schemes) {
  for (const layer of route.stack ?? []) {
    const security = routeOf(layer.handle)?.security
    if (security === undefined) continue
    const path = `${prefix}${String(route.path)}`.replace(/\/{2,}/g, '/')
    const name = `the route ${layer.method?.toUpperCase() ?? 'ALL'} ${path}`
    try {
      checkSecurity(security, `${name}: security`, schemes)
    } catch (err) {
      logger.error(`${(err as Error).message}: every request of it is answered 500`)
    }
  }
}
