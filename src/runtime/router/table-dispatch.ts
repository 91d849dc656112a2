import {
  type LayerSource,
  makeRecorder,
  makeShimKit,
  type RouteLayer,
  type Shim,
  type ShimKit,
} from './layer-shims.js'
import { emptyTable, lookup, type RouteTable, refresh } from './route-table.js'

// A router's own `handle` walks its whole layer stack for every request. Here it walks a list:
// only the layers the route table says could match the path, in stack order, each route followed
// by a recorder that notes the route's methods when its path matched but not the request's method
// (for the 405 of notFoundHandler). The host's own code still matches each layer, sets
// `req.params`, runs param callbacks, `next('route')`, HEAD, OPTIONS and errors, so nothing a user
// sees changes; layers that cannot match are never visited.
//
// What the table cannot know in advance: a layer that runs may change `req.url` (a rewrite) or add
// layers to the router, and the host matches every later layer against the new state. So a guard
// stands wherever layers were left out after something ran, and at the end; when it finds the URL
// or the stack changed, it fills the rest of the list again from that point.

/** The host router members used here (Express 4 and 5 alike). */
export interface HostRouter extends LayerSource {
  handle(req: { url?: string }, res: unknown, out: unknown): void
}

interface Frame {
  readonly router: HostRouter
  readonly dispatch: Dispatch
  url: string | undefined
  length: number
  readonly layers: unknown[]
}

interface Dispatch {
  /** false: every layer is listed (the differential tests' reference). */
  readonly filter: boolean
  table: RouteTable
  kit: ShimKit | undefined
  Guard: (new (frame: Frame, at: number, from: number) => Guard) | undefined
  /** The recorder of the route layer at each stack position (checked against the layer). */
  readonly recorders: (Shim & { target: unknown })[]
  readonly makeRouter: () => LayerSource
}

interface Guard extends Shim {
  readonly frame: Frame
  /** Where in `frame.layers` the guard stands, and the stack position it resumes from. */
  readonly at: number
  readonly from: number
}

// One constructor per router (its prototype is the host's layer): guards of one shape.
function guardClass(kit: ShimKit): new (frame: Frame, at: number, from: number) => Guard {
  function Guard(
    this: { frame: Frame; at: number; from: number },
    f: Frame,
    at: number,
    from: number,
  ) {
    this.frame = f
    this.at = at
    this.from = from
  }
  Guard.prototype = Object.create(kit.guard)
  Guard.prototype.run = checkGuard
  return Guard as never
}

function checkGuard(this: Guard, req: { url?: string }): void {
  const frame = this.frame
  const stack = frame.router.stack
  if (req.url === frame.url && stack.length === frame.length) return
  frame.layers.length = this.at + 1
  fill(frame, req.url, this.from)
}

/**
 * Makes `router` dispatch every request through a list built from its route table.
 * `makeRouter` builds a throwaway router whose `use()` layer lends the shims the host's layer
 * behaviour. Returns false (and changes nothing) for a router without Express's `stack` and `handle`.
 * `filter: false` lists every layer (with the recorders): what the table is tested against.
 */
export function dispatchThroughTable(
  router: HostRouter,
  makeRouter: () => LayerSource,
  filter = true,
): boolean {
  const hostHandle = router.handle
  if (typeof hostHandle !== 'function' || !Array.isArray(router.stack)) return false
  const dispatch: Dispatch = {
    filter,
    table: emptyTable(router.stack),
    kit: undefined,
    Guard: undefined,
    recorders: [],
    makeRouter,
  }
  // The host reads `this.stack` once, when a request enters: a view of the router whose stack is
  // the request's list dispatches that list with the router's own options and param callbacks.
  const view = Object.create(router) as HostRouter
  router.handle = function handle(req, res, out) {
    const frame: Frame = { router, dispatch, url: req.url, length: 0, layers: [] }
    fill(frame, req.url, 0)
    view.stack = frame.layers
    hostHandle.call(view, req, res, out)
  }
  return true
}

/**
 * Appends to `frame.layers` the layers of the stack from `from` on that could match `url`, each
 * route with its recorder, and a guard after each run of them that a left-out layer or the end of
 * the stack follows.
 */
function fill(frame: Frame, url: string | undefined, from: number): void {
  const dispatch = frame.dispatch
  const stack = frame.router.stack
  const table = refresh(dispatch.table, stack)
  // A new table means a new stack: recorders of layers no longer in it go.
  if (table !== dispatch.table) dispatch.recorders.length = 0
  dispatch.table = table
  dispatch.kit ??= makeShimKit(dispatch.makeRouter)
  const kit = dispatch.kit
  dispatch.Guard ??= guardClass(kit)
  const Guard = dispatch.Guard
  const recorders = dispatch.recorders
  frame.url = url
  frame.length = stack.length
  const pathname = dispatch.filter ? pathnameOf(url) : undefined
  const positions = pathname === undefined ? undefined : lookup(table, pathname)
  const layers = frame.layers
  const count = positions === undefined ? stack.length : positions.length
  for (let k = positions === undefined ? from : 0; k < count; k++) {
    const at = positions === undefined ? k : positions[k]!
    if (at < from) continue
    const layer = stack[at] as { route?: unknown }
    layers.push(layer)
    if (layer.route !== undefined && layer.route !== null) {
      let recorder = recorders[at]
      if (recorder === undefined || recorder.target !== layer) {
        recorder = makeRecorder(kit, layer as RouteLayer)
        recorders[at] = recorder
      }
      layers.push(recorder)
    }
    const next = positions === undefined ? at + 1 : positions[k + 1]
    if (next !== at + 1 || at + 1 === stack.length) {
      layers.push(new Guard(frame, layers.length, at + 1))
    }
  }
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
