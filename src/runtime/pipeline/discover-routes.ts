import { optionError } from '../../shared/error-codes.js'
import { type MarkedAnswers, routeOf, shapeguardMarkOf } from '../core/route-mark.js'
import { type HostLayer, maxDepth, mountPaths, stackOf, stringPaths } from '../host/router-stack.js'
import type { AnyRoute } from './route-types.js'

/** A route registered with `handle()` or `validate()` on an Express app or router. */
export interface DiscoveredRoute {
  /** Lower-case HTTP method (`get`, `post`, …). */
  readonly method: string
  /** The full path in Express's `:param` syntax, mount paths of nested routers included. */
  readonly path: string
  /** The route definition `validate()`/`handle()` was given. */
  readonly route: AnyRoute
}

/** What `discoverRoutes` found: the routes, and what it could not read (one line each, no values). */
export interface Discovery {
  readonly routes: readonly DiscoveredRoute[]
  readonly skipped: readonly string[]
  /** How each `shapeguard()` mounted on the app or its routers answers, in mount order. */
  readonly answers: readonly MarkedAnswers[]
}

interface Found {
  readonly routes: DiscoveredRoute[]
  readonly skipped: string[]
  readonly answers: MarkedAnswers[]
}

const join = (prefix: string, path: string) =>
  `${prefix}/${path}`.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1')

/**
 * Finds every route registered with `handle()` or `validate()` on an Express 4 or 5 app, an Express
 * router, or a `createRouter()` router, with the full path of nested routers and their mount
 * points (`app.use('/v1', router)` → `/v1/...`), in registration order. Paths given as a RegExp
 * and sub-applications mounted with `app.use(path, otherApp)` cannot be read; they are listed in
 * `skipped` instead.
 * @param app an Express app or router
 * @example discoverRoutes(app).routes // → [{ method: 'post', path: '/v1/users', route }]
 */
export function discoverRoutes(app: unknown): Discovery {
  const stack = stackOf(app)
  if (stack === undefined) {
    throw optionError(
      'SG_ERR_NOT_AN_APP',
      'shapeguard: app: must be an Express app or router (with a layer stack)',
    )
  }
  const found: Found = { routes: [], skipped: [], answers: [] }
  walk(stack, '', 0, new Set(), found)
  return found
}

function walk(
  stack: readonly HostLayer[],
  prefix: string,
  depth: number,
  seen: Set<unknown>,
  found: Found,
): void {
  if (depth > maxDepth || seen.has(stack)) return
  seen.add(stack)
  for (const layer of stack) {
    if (layer.route !== undefined) {
      routeLayer(layer.route, prefix, found)
      continue
    }
    const answers = shapeguardMarkOf(layer.handle)?.answers
    if (answers !== undefined) found.answers.push(answers)
    const handle = layer.handle as { stack?: unknown; name?: string } | undefined
    const inner = Array.isArray(handle?.stack) ? (handle.stack as HostLayer[]) : undefined
    if (inner === undefined) {
      if (handle?.name === 'mounted_app') found.skipped.push(subApplication(layer, prefix))
      continue
    }
    const paths = mountPaths(layer)
    if (paths === undefined) {
      found.skipped.push(`a router mounted under ${prefix || '/'} at a RegExp path`)
      continue
    }
    for (const path of paths) walk(inner, join(prefix, path), depth + 1, seen, found)
  }
  seen.delete(stack)
}

/** What cannot be documented of a sub-application, named by the path it is mounted at. */
function subApplication(layer: HostLayer, prefix: string): string {
  const at = mountPaths(layer)?.map((path) => join(prefix, path))
  return `a sub-application mounted at ${at?.join(', ') ?? `a RegExp path under ${prefix || '/'}`} (mount a router instead)`
}

function routeLayer(route: NonNullable<HostLayer['route']>, prefix: string, found: Found): void {
  const { routes, skipped } = found
  const paths = stringPaths(route.path)
  for (const layer of route.stack ?? []) {
    // validate() marks its middleware with the route it was given, checked by planRoute().
    const definition = routeOf(layer.handle) as AnyRoute | undefined
    if (definition === undefined || layer.method === undefined) continue
    if (paths === undefined) {
      skipped.push(`a ${layer.method.toUpperCase()} route under ${prefix || '/'} at a RegExp path`)
      continue
    }
    for (const path of paths)
      routes.push({
        method: layer.method.toLowerCase(),
        path: join(prefix, path),
        route: definition,
      })
  }
}
