import { emptyTable, lookup, type RouteTable, refresh } from './route-table.js'

// A router's own `handle` walks its whole layer stack for every request. Here it walks only the
// layers the route table says could match the path, in stack order: the host's own code still
// matches each of them, sets `req.params`, runs param callbacks, `next('route')`, HEAD, OPTIONS
// and errors, so nothing a user sees changes; only layers that cannot match are never visited.
//
// One thing the table cannot know in advance: a layer that runs may change `req.url` (a rewrite)
// or add layers to the router, and the host matches every later layer against the new state. So a
// guard layer stands wherever layers were left out after something ran; when it finds the URL or
// the stack changed, it fills the rest of the request's list again from that point.

/** The host router members used here (Express 4 and 5 alike). */
interface HostRouter {
  (req: unknown, res: unknown, next: unknown): void
  stack: unknown[]
  handle(req: { url?: string }, res: unknown, out: unknown): void
  use(fn: (req: unknown, res: unknown, next: () => void) => void): unknown
}

type Next = (err?: unknown) => void

// Below this many layers the host's scan is about as cheap as a lookup: the host runs as is.
export const minLayers = 12

interface Frame {
  readonly router: HostRouter
  readonly guard: (frame: Frame, at: number, from: number) => Guard
  table: RouteTable
  url: string
  length: number
  readonly layers: unknown[]
}

/**
 * A layer of the host's own make (a `use()` layer matching every path) with two methods replaced:
 * instead of calling a handler it checks whether the request's list is still right, then passes
 * on what it received (an error stays an error).
 */
interface Guard {
  frame: Frame
  /** Where in `frame.layers` the guard stands, and the stack position it resumes from. */
  at: number
  from: number
}

function check(guard: Guard, req: { url?: string }): void {
  const frame = guard.frame
  const stack = frame.router.stack
  if (req.url === frame.url && stack.length === frame.length) return
  frame.layers.length = guard.at + 1
  frame.table = refresh(frame.table, stack)
  fill(frame, req.url, guard.from)
}

/**
 * Makes `router` dispatch through a route table. `makeRouter` builds a throwaway router whose one
 * `use()` layer lends the guards the host's layer behaviour.
 */
export function dispatchThroughTable(router: HostRouter, makeRouter: () => HostRouter): void {
  const hostHandle = router.handle
  if (typeof hostHandle !== 'function' || !Array.isArray(router.stack)) return
  let table = emptyTable(router.stack)
  let guardProto: object | undefined
  // The host reads `this.stack` once, when a request enters: a view of the router whose stack is
  // the request's list dispatches that list with the router's own options and param callbacks.
  const view = Object.create(router) as HostRouter
  const newGuard = (frame: Frame, at: number, from: number): Guard => {
    guardProto ??= makeGuardProto(makeRouter)
    const guard = Object.create(guardProto) as Guard
    guard.frame = frame
    guard.at = at
    guard.from = from
    return guard
  }
  router.handle = function handle(req, res, out) {
    const stack = router.stack
    const url = req.url
    if (stack.length < minLayers || pathnameOf(url) === undefined)
      return hostHandle.call(router, req, res, out)
    table = refresh(table, stack)
    const frame: Frame = {
      router,
      guard: newGuard,
      table,
      url: url as string,
      length: stack.length,
      layers: [],
    }
    fill(frame, url, 0)
    view.stack = frame.layers
    hostHandle.call(view, req, res, out)
  }
}

/**
 * Appends to `frame.layers` the layers of the stack from `from` on that could match `url`, with a
 * guard after each run of them that some left-out layer (or the end of the stack) follows.
 */
function fill(frame: Frame, url: string | undefined, from: number): void {
  const guard = frame.guard
  const stack = frame.router.stack
  const layers = frame.layers
  frame.url = url as string
  frame.length = stack.length
  const pathname = pathnameOf(url)
  if (pathname === undefined) {
    // A URL the table does not read: every remaining layer, as the host would scan them.
    for (let i = from; i < stack.length; i++) layers.push(stack[i])
    layers.push(guard(frame, layers.length, stack.length))
    return
  }
  const positions = lookup(frame.table, pathname)
  for (let k = 0; k < positions.length; k++) {
    const at = positions[k]!
    if (at < from) continue
    layers.push(stack[at])
    if (positions[k + 1] !== at + 1) layers.push(guard(frame, layers.length, at + 1))
  }
}

function makeGuardProto(makeRouter: () => HostRouter): object {
  const probe = makeRouter()
  probe.use(function shapeguardRouteTable(_req, _res, next) {
    next()
  })
  const proto = Object.create(probe.stack[0] as object) as Record<string, unknown>
  function request(this: Guard, req: { url?: string }, _res: unknown, next: Next): void {
    check(this, req)
    next()
  }
  function error(this: Guard, err: unknown, req: { url?: string }, _res: unknown, next: Next) {
    check(this, req)
    next(err)
  }
  // Express 4's Layer names, then Express 5's (router 2).
  proto.handle_request = proto.handleRequest = request
  proto.handle_error = proto.handleError = error
  return proto
}

/**
 * The raw pathname as the host reads it (`parseurl`), or undefined where the table does not read
 * the URL the same way: not starting with `/` (absolute form), or holding a character for which
 * parseurl falls back to Node's legacy parser (whitespace, `#`).
 */
export function pathnameOf(url: string | undefined): string | undefined {
  if (typeof url !== 'string' || url.charCodeAt(0) !== 0x2f) return undefined
  let end = url.length
  for (let i = 1; i < url.length; i++) {
    const c = url.charCodeAt(i)
    if (c === 0x3f) {
      if (end === url.length) end = i
    } else if (
      c === 0x09 ||
      c === 0x0a ||
      c === 0x0c ||
      c === 0x0d ||
      c === 0x20 ||
      c === 0x23 ||
      c === 0xa0 ||
      c === 0xfeff
    )
      return undefined
  }
  return end === url.length ? url : url.slice(0, end)
}
