import { routeOf } from '../core/route-mark.js'
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
}

/** The parts of an Express 4 or 5 router layer read here. */
export interface HostLayer {
  readonly method?: string
  readonly handle?: unknown
  readonly route?: { readonly path?: unknown; readonly stack?: readonly HostLayer[] }
  /** Express 5 (router 2): the path the layer was registered with. */
  readonly rawPath?: unknown
  /** Express 4: the path compiled to a RegExp (`fast_slash` for `/`) and its parameter names. */
  readonly regexp?: RegExp & { readonly fast_slash?: boolean }
  readonly keys?: readonly { readonly name: string | number }[]
}

// Nested routers deeper than this are not followed (a router mounted inside itself).
export const maxDepth = 32

/** The layer stack of an Express 4 app, an Express 5 app, or a router (a function with `stack`). */
export function stackOf(app: unknown): readonly HostLayer[] | undefined {
  if ((typeof app !== 'function' && typeof app !== 'object') || app === null) return undefined
  const host = app as {
    stack?: unknown
    _router?: { stack?: unknown }
    router?: { stack?: unknown }
    lazyrouter?: unknown
  }
  if (Array.isArray(host.stack)) return host.stack
  // Express 4 keeps the app's router in `_router` (created on first use), Express 5 in `router`.
  if (typeof host.lazyrouter === 'function') return (host._router?.stack as HostLayer[]) ?? []
  const stack = host.router?.stack
  return Array.isArray(stack) ? stack : undefined
}

// The end of every mount RegExp path-to-regexp 0.1 (Express 4) compiles: an optional slash, then
// a slash or the end.
const mountEnd = '\\/?(?=\\/|$)'
// A parameter segment, as path-to-regexp 0.1.12 and earlier 0.1 versions write it.
const paramGroup = /\(\?:\\\/\(\[\^\/\]\+\?\)\)|\\\/\(\?:\(\[\^\\\/\]\+\?\)\)/g

/**
 * Express 4's mount paths from the layer's compiled RegExp (`^\/v1(?:\/([^/]+?))\/?(?=\/|$)`, one
 * `^…` alternative per path of an array), or undefined when it is not one a plain path compiles to
 * (a RegExp the user gave, a wildcard).
 */
function pathsOfRegexp(layer: HostLayer): readonly string[] | undefined {
  const re = layer.regexp
  if (re === undefined) return undefined
  if (re.fast_slash) return ['']
  let key = 0
  const paths: string[] = []
  for (const alternative of re.source.split(/\|(?=\^)/)) {
    if (!alternative.startsWith('^') || !alternative.endsWith(mountEnd)) return undefined
    const body = alternative
      .slice(1, -mountEnd.length)
      .replace(paramGroup, () => `/:${String(layer.keys?.[key++]?.name)}`)
    const path = body.replace(/\\(.)/g, '$1')
    if (/[()[\]*+?^$|\\]/.test(path)) return undefined
    paths.push(path)
  }
  return paths
}

/** The paths a mounted layer (`app.use(path, router)`) stands at, or undefined when unreadable. */
export function mountPaths(layer: HostLayer): readonly string[] | undefined {
  if (layer.rawPath !== undefined) return stringPaths(layer.rawPath)
  return pathsOfRegexp(layer)
}

function stringPaths(path: unknown): readonly string[] | undefined {
  const paths = Array.isArray(path) ? path.flat(Infinity) : [path]
  return paths.every((p) => typeof p === 'string') ? (paths as string[]) : undefined
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
    throw new TypeError('shapeguard: app must be an Express app or router (with a layer stack)')
  }
  const routes: DiscoveredRoute[] = []
  const skipped: string[] = []
  walk(stack, '', 0, new Set(), routes, skipped)
  return { routes, skipped }
}

function walk(
  stack: readonly HostLayer[],
  prefix: string,
  depth: number,
  seen: Set<unknown>,
  routes: DiscoveredRoute[],
  skipped: string[],
): void {
  if (depth > maxDepth || seen.has(stack)) return
  seen.add(stack)
  for (const layer of stack) {
    if (layer.route !== undefined) {
      routeLayer(layer.route, prefix, routes, skipped)
      continue
    }
    const handle = layer.handle as { stack?: unknown; name?: string } | undefined
    const inner = Array.isArray(handle?.stack) ? (handle.stack as HostLayer[]) : undefined
    if (inner === undefined) {
      if (handle?.name === 'mounted_app')
        skipped.push(`a sub-application mounted under ${prefix || '/'} (mount a router instead)`)
      continue
    }
    const paths = mountPaths(layer)
    if (paths === undefined) {
      skipped.push(`a router mounted under ${prefix || '/'} at a RegExp path`)
      continue
    }
    for (const path of paths) walk(inner, join(prefix, path), depth + 1, seen, routes, skipped)
  }
  seen.delete(stack)
}

function routeLayer(
  route: NonNullable<HostLayer['route']>,
  prefix: string,
  routes: DiscoveredRoute[],
  skipped: string[],
): void {
  const paths = stringPaths(route.path)
  for (const layer of route.stack ?? []) {
    const definition = routeOf(layer.handle)
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
