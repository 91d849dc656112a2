import { type HostLayer, maxDepth, mountPaths, stackOf } from '../host/router-stack.js'
import { logger } from '../logging/logger.js'

/** The middleware that must come after an app's routes, as their factories mark them. */
export type Terminal = 'errorHandler()' | 'notFoundHandler()'

// `Symbol.for`: a handler made by another copy of the package is recognised too.
const kTerminal: unique symbol = Symbol.for('shapeguard.terminal') as never

/** Marks the middleware `errorHandler()` or `notFoundHandler()` returns; returns it. */
export function markTerminal<F extends object>(middleware: F, name: Terminal): F {
  Object.defineProperty(middleware, kTerminal, { value: name, enumerable: false })
  return middleware
}

function terminalOf(handle: unknown): Terminal | undefined {
  return typeof handle === 'function'
    ? (handle as { [kTerminal]?: Terminal })[kTerminal]
    : undefined
}

// Mounted at `/`, so it sees every request of its stack: Express 4 marks the compiled path,
// Express 5 (router 2) the layer.
function atRoot(layer: HostLayer): boolean {
  return (
    (layer as { slash?: unknown }).slash === true ||
    (layer.regexp as { fast_slash?: unknown } | undefined)?.fast_slash === true
  )
}

function routeName(route: NonNullable<HostLayer['route']>, prefix: string): string {
  const methods = Object.keys((route as { methods?: object }).methods ?? {})
  const method =
    methods.length === 0 ? '' : `${methods[0] === '_all' ? 'ALL' : methods[0]!.toUpperCase()} `
  const path = typeof route.path === 'string' ? route.path : String(route.path)
  return `the route ${method}${`${prefix}${path}`.replace(/\/{2,}/g, '/')}`
}

/** The first route (or notFoundHandler(), which errors come from too) in `stack` and below. */
function firstAfter(
  stack: readonly HostLayer[],
  prefix: string,
  depth: number,
  seen: Set<unknown>,
): string | undefined {
  if (depth > maxDepth || seen.has(stack)) return undefined
  seen.add(stack)
  for (const layer of stack) {
    if (layer.route !== undefined) return routeName(layer.route, prefix)
    if (terminalOf(layer.handle) === 'notFoundHandler()') return 'notFoundHandler()'
    const inner = (layer.handle as { stack?: unknown } | undefined)?.stack
    if (!Array.isArray(inner)) continue
    const found = firstAfter(inner, prefix + (mountPaths(layer)?.[0] ?? ''), depth + 1, seen)
    if (found !== undefined) return found
  }
  return undefined
}

const consequences: Record<Terminal, string> = {
  'notFoundHandler()':
    'it answers 404 before that route is reached; mount notFoundHandler() after your routes, before errorHandler()',
  'errorHandler()':
    'errors from there never reach it and Express answers them with its own HTML page; mount errorHandler() last',
}

/**
 * The first misplaced `errorHandler()` or `notFoundHandler()` of a stack (and the routers below
 * it): one mounted at `/` of a stack with a route, a router holding one, or (for errorHandler())
 * a notFoundHandler() after it. Undefined when the order is right.
 */
function misplaced(
  stack: readonly HostLayer[],
  prefix: string,
  depth: number,
  seen: Set<unknown>,
): string | undefined {
  if (depth > maxDepth || seen.has(stack)) return undefined
  seen.add(stack)
  for (const [i, layer] of stack.entries()) {
    const terminal = terminalOf(layer.handle)
    if (terminal !== undefined) {
      if (!atRoot(layer)) continue
      const after = firstAfter(stack.slice(i + 1), prefix, depth, new Set())
      if (after !== undefined && !(terminal === 'notFoundHandler()' && after === terminal)) {
        return `shapeguard: ${terminal} is mounted before ${after}: ${consequences[terminal]}`
      }
      continue
    }
    const inner = (layer.handle as { stack?: unknown } | undefined)?.stack
    if (layer.route !== undefined || !Array.isArray(inner)) continue
    const found = misplaced(inner, prefix + (mountPaths(layer)?.[0] ?? ''), depth + 1, seen)
    if (found !== undefined) return found
  }
  return undefined
}

const checked = new WeakSet<object>()

/**
 * Logs once per app when its `errorHandler()` or `notFoundHandler()` is mounted before a route
 * (or errorHandler() before notFoundHandler()) of the same app or router: every such route would
 * answer 404, or its errors would reach Express's own HTML page. Called at the app's first request
 * in development; walks the app's layer stack once, later calls for the app return at once.
 * @param app the request's app (`req.app`)
 * @example if (config.debug) warnHandlerOrder(req.app)
 */
export function warnHandlerOrder(app: unknown): void {
  if ((typeof app !== 'function' && typeof app !== 'object') || app === null) return
  if (checked.has(app)) return
  checked.add(app)
  const stack = stackOf(app)
  const found = stack === undefined ? undefined : misplaced(stack, '', 0, new Set())
  if (found !== undefined) logger.warn(found)
}
