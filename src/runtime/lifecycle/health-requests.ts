import type { Request } from 'express'
import { type HostLayer, maxDepth, mountPaths, stackOf } from '../host/router-stack.js'

// A health() router carries its own paths under a global key; isHealthRequest finds the marked
// routers in an app's stack, with the paths they are mounted at, and compares a request's path to
// the full paths found. Load shedding and a draining server ask it before routing, only for a
// request they are about to refuse.

const kHealth: unique symbol = Symbol.for('shapeguard.health') as never

/** Marks a `health()` router with the paths it answers (relative to where it is mounted). */
export function markHealth<F extends object>(router: F, paths: readonly string[]): F {
  Object.defineProperty(router, kHealth, { value: Object.freeze([...paths]), enumerable: false })
  return router
}

function healthPathsOf(handle: unknown): readonly string[] | undefined {
  if (typeof handle !== 'function') return undefined
  return (handle as { [kHealth]?: readonly string[] })[kHealth]
}

/** The full health paths of an app, and the stacks (with their lengths) they were read from. */
interface Found {
  readonly stacks: [readonly HostLayer[], number][]
  readonly paths: Set<string>
}

const found = new WeakMap<object, Found>()
// Bounds the walk: a pathological app with more routers than this is read no further.
const maxStacks = 256

const join = (prefix: string, path: string) => `${prefix}/${path}`.replace(/\/{2,}/g, '/')

function walk(stack: readonly HostLayer[], prefix: string, depth: number, into: Found): void {
  if (depth > maxDepth || into.stacks.length >= maxStacks) return
  if (into.stacks.some(([seen]) => seen === stack)) return
  into.stacks.push([stack, stack.length])
  for (const layer of stack) {
    if (layer.route !== undefined) continue
    const own = healthPathsOf(layer.handle)
    const inner = own === undefined ? stackOf(layer.handle) : undefined
    if (own === undefined && inner === undefined) continue
    // A RegExp or pattern mount path cannot be compared as a string: its probes are not let through.
    const mounts = mountPaths(layer)?.filter((path) => !/[:*?+()[\]{}\\]/.test(path))
    for (const mount of mounts ?? []) {
      const at = join(prefix, mount)
      if (own !== undefined) for (const path of own) into.paths.add(join(at, path))
      else walk(inner!, at, depth + 1, into)
    }
  }
}

const unchanged = (known: Found) => known.stacks.every(([stack, length]) => stack.length === length)

/** The app's mount path from its root app, or undefined when it is not a plain string. */
function mountOf(app: unknown): string | undefined {
  let prefix = ''
  for (let depth = 0; depth < maxDepth; depth++) {
    const parent = (app as { parent?: unknown }).parent
    if (typeof parent !== 'function') return prefix
    const mount = (app as { mountpath?: unknown }).mountpath
    if (typeof mount !== 'string' || /[:*?+()[\]{}\\]/.test(mount)) return undefined
    prefix = join(mount, prefix)
    app = parent
  }
  return undefined
}

function pathsOf(app: unknown): ReadonlySet<string> | undefined {
  const stack = stackOf(app)
  if (stack === undefined) return undefined
  const known = found.get(app as object)
  if (known !== undefined && known.stacks[0]?.[0] === stack && unchanged(known)) return known.paths
  const prefix = mountOf(app)
  if (prefix === undefined) return undefined
  const fresh: Found = { stacks: [], paths: new Set() }
  walk(stack, prefix === '/' ? '' : prefix, 0, fresh)
  found.set(app as object, fresh)
  return fresh.paths
}

/**
 * Whether a request is for one of the app's `health()` routes (its liveness or readiness path,
 * mount paths included): load shedding and a draining server let it through. Only a GET or HEAD
 * whose path is exactly one of them (one trailing slash allowed, as the router allows it) is: a
 * path spelled otherwise (case, encoded characters, dot segments, a doubled slash) is not, so no
 * request another route would answer slips past. Called before routing, from the app itself.
 * @param app the Express app; default `req.app` (a request not yet routed has none)
 */
export function isHealthRequest(req: Request, app: unknown = req.app): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false
  const url = req.originalUrl ?? req.url
  if (typeof url !== 'string') return false
  const q = url.indexOf('?')
  const path = q === -1 ? url : url.slice(0, q)
  const paths = pathsOf(app)
  if (paths === undefined || paths.size === 0) return false
  return paths.has(path) || (path.length > 1 && path.endsWith('/') && paths.has(path.slice(0, -1)))
}
