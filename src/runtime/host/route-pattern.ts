import type { Request } from 'express'
import { type HostLayer, maxDepth, mountPaths, stackOf } from './router-stack.js'

/** What is read of an app: the path it is mounted at and the app it is mounted on. */
interface MountedApp {
  readonly mountpath?: unknown
  readonly parent?: unknown
}

// Each route's pattern, for the app it was last found in: a request reaches a route only through
// the layers the app already has, so the walk runs once per route (again only when one router
// serves two apps and the app changes).
const found = new WeakMap<object, { readonly app: unknown; readonly pattern: string }>()

/**
 * The route a request matched, as registered: the mount paths of the apps and routers above it
 * and the route's own path (`/v1/users/:id`), the same for every spelling Express routes to that
 * route (case, a trailing slash, percent-encoding, parameter values). A route at several paths (a
 * router mounted twice, an array of paths) has the first one registered; a RegExp is written as
 * one (`/^\/v\d+/`); a route whose router the app does not mount (one called from a handler) has
 * its own path. Undefined outside a route (middleware of `use()`).
 * @example app.use('/v1', users); users.get('/:id', (req, res) => res.ok({ data: routePatternOf(req) })) // '/v1/:id'
 */
export function routePatternOf(req: Request): string | undefined {
  const route: unknown = req.route
  if (typeof route !== 'object' || route === null) return undefined
  return patternOf(route, req.app)
}

/** `routePatternOf` for a route of `app` (a route layer's `route`) before a request enters it. */
export function patternOf(route: object, app: unknown): string {
  const hit = found.get(route)
  if (hit !== undefined && hit.app === app) return hit.pattern
  let pattern = append('', (route as NonNullable<HostLayer['route']>).path)
  for (const [layer, prefix] of layersOf(app)) {
    if (layer.route !== route) continue
    pattern = append(prefix, layer.route.path)
    break
  }
  found.set(route, { app, pattern })
  return pattern
}

/**
 * The middleware of an app and of the routers below it (the layers that are neither routes nor
 * routers), in registration order, each with the path it is mounted at as registered, the mount
 * paths above it included (`app.use('/v1', api); api.use('/Login', limit)` → `/v1/Login`; `/` for
 * no path). A router mounted at several paths is walked once, under its first one.
 * @example for (const [path, handle] of middlewareOf(req.app)) if (handle === limit) return path
 */
export function* middlewareOf(app: unknown): Generator<readonly [path: string, handle: unknown]> {
  for (const [layer, prefix] of layersOf(app)) {
    if (layer.route !== undefined || isRouter(layer)) continue
    yield [append(prefix, mountOf(layer)), layer.handle]
  }
}

/** Every layer of the app and of the routers below it, depth first, with the path above it. */
function layersOf(app: unknown): Generator<readonly [layer: HostLayer, prefix: string]> {
  const stack = stackOf(app)
  return walk(stack ?? [], appMount(app), 0, new Set())
}

function* walk(
  stack: readonly HostLayer[],
  prefix: string,
  depth: number,
  // Stacks already walked: a router mounted twice (or inside itself) is walked once.
  seen: Set<unknown>,
): Generator<readonly [layer: HostLayer, prefix: string]> {
  if (depth > maxDepth || seen.has(stack)) return
  seen.add(stack)
  for (const layer of stack) {
    yield [layer, prefix]
    if (layer.route !== undefined || !isRouter(layer)) continue
    const inner = (layer.handle as { stack: readonly HostLayer[] }).stack
    yield* walk(inner, append(prefix, mountOf(layer)), depth + 1, seen)
  }
}

const isRouter = (layer: HostLayer) =>
  Array.isArray((layer.handle as { stack?: unknown } | undefined)?.stack)

/** The first path a layer that is not a route is mounted at: as given, or as Express 4 compiled it. */
const mountOf = (layer: HostLayer): unknown =>
  mountPaths(layer)?.[0] ?? layer.rawPath ?? layer.regexp

/** The mount paths of a sub-application and of the apps it is mounted in, outermost first. */
function appMount(app: unknown): string {
  const paths: unknown[] = []
  let at = app as MountedApp | undefined
  while (paths.length < maxDepth && typeof at?.parent === 'function') {
    paths.push(at.mountpath)
    at = at.parent as MountedApp
  }
  let prefix = ''
  for (let i = paths.length - 1; i >= 0; i--) prefix = append(prefix, paths[i])
  return prefix
}

/**
 * `prefix` and a registered path (the first of an array) joined by one slash, without the path's
 * edge slashes (a mount at `/` adds nothing; Express ignores a trailing slash unless `strict`); a
 * path that is not a string (a RegExp) is appended as its text.
 */
function append(prefix: string, path: unknown): string {
  const first: unknown = Array.isArray(path) ? path.flat(Infinity)[0] : path
  if (typeof first !== 'string') return `${prefix === '/' ? '' : prefix}${String(first)}`
  let start = 0
  let end = first.length
  while (start < end && first.charCodeAt(start) === 0x2f) start++
  while (end > start && first.charCodeAt(end - 1) === 0x2f) end--
  return start === end
    ? prefix || '/'
    : `${prefix === '/' ? '' : prefix}/${first.slice(start, end)}`
}
