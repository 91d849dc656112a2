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

export function terminalOf(handle: unknown): Terminal | undefined {
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

const consequences: Record<Terminal, string> = {
  'notFoundHandler()':
    'it answers 404 before that route is reached; mount notFoundHandler() after your routes, before errorHandler()',
  'errorHandler()':
    'errors from there never reach it and Express answers them with its own HTML page; mount errorHandler() last',
}

// What a misplaced handler is mounted before: a route, with the mount paths from the stack it was
// found in down to it, or a notFoundHandler() (which errors come from too).
type Event = { readonly route: NonNullable<HostLayer['route']>; readonly below: string } | Terminal

/** The one walk of an app's stacks, depth first, each stack once. */
interface Walk {
  /**
   * Per stack being walked, outermost first: the handlers mounted at its root that no route or
   * notFoundHandler() has come after yet. The first that comes answers them all.
   */
  readonly waiting: Terminal[][]
  /** The first route or notFoundHandler() in each stack walked: a stack mounted again has it. */
  readonly first: Map<object, Event | null>
}

function nameOf(event: Event, prefix: string): string {
  return typeof event === 'string' ? event : routeName(event.route, prefix + event.below)
}

// A route or notFoundHandler() comes: the first handler waiting for one, outermost first, that
// must not come before it is misplaced (a notFoundHandler() may come before another).
function meet(walk: Walk, event: Event, prefix: string): string | undefined {
  const after = nameOf(event, prefix)
  for (const waiting of walk.waiting) {
    for (const terminal of waiting) {
      if (terminal === 'notFoundHandler()' && after === terminal) continue
      return `shapeguard: ${terminal} is mounted before ${after}: ${consequences[terminal]}`
    }
  }
  for (const waiting of walk.waiting) waiting.length = 0
  return undefined
}

/**
 * The first misplaced `errorHandler()` or `notFoundHandler()` of a stack and the routers below it:
 * one mounted at `/` of a stack before a route, before a router holding one, or (errorHandler())
 * before a notFoundHandler(). Undefined when the order is right.
 */
function misplaced(
  stack: readonly HostLayer[],
  prefix: string,
  depth: number,
  walk: Walk,
): string | undefined {
  if (depth > maxDepth) return undefined
  if (walk.first.has(stack)) {
    // Walked already (a router mounted twice), or being walked (mounted inside itself).
    const event = walk.first.get(stack)
    return event === null || event === undefined ? undefined : meet(walk, event, prefix)
  }
  walk.first.set(stack, null)
  const own: Terminal[] = []
  walk.waiting.push(own)
  let first: Event | null = null
  try {
    for (const layer of stack) {
      let event: Event | undefined
      let mount = ''
      const terminal = terminalOf(layer.handle)
      const inner = (layer.handle as { stack?: unknown } | undefined)?.stack
      if (layer.route !== undefined) event = { route: layer.route, below: '' }
      else if (terminal === 'notFoundHandler()') event = terminal
      else if (terminal === undefined && Array.isArray(inner)) {
        mount = mountPaths(layer)?.[0] ?? ''
        const found = misplaced(inner, prefix + mount, depth + 1, walk)
        if (found !== undefined) return found
        const below = walk.first.get(inner)
        if (first === null && typeof below === 'object' && below !== null) {
          first = { route: below.route, below: mount + below.below }
        } else if (first === null && typeof below === 'string') first = below
      }
      if (event !== undefined) {
        first ??= event
        const found = meet(walk, event, prefix)
        if (found !== undefined) return found
      }
      if (terminal !== undefined && atRoot(layer)) own.push(terminal)
    }
    return undefined
  } finally {
    walk.first.set(stack, first)
    walk.waiting.pop()
  }
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
  const found =
    stack === undefined ? undefined : misplaced(stack, '', 0, { waiting: [], first: new Map() })
  if (found !== undefined) logger.warn(found)
}
