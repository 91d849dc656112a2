import type { NextFunction, Request, Response } from 'express'
import type { ResolvedConfig } from '../config/resolve-config.js'
import type { RequestLogState } from '../logging/request-log-state.js'
import type { RouteShape } from '../response/route-shape.js'
import type { PrepareData } from '../response/strip-response.js'
import { dictionaryMode } from './dictionary-mode.js'

// One global key: shapeguard() from one copy of the package (the ESM build, say) and handle()
// from another (the CJS build) must find the same context, or stripping would silently not run.
// A property, not a WeakMap entry: measured over HTTP, the table cost a guarded request about 15 µs
// more (its entries, keyed by short-lived responses, are work for every garbage collection; on
// Node 20 the GC's share of a loaded guarded server went from 9.1 % to 13.0 %).
const kContext: unique symbol = Symbol.for('shapeguard.context') as never

/**
 * Everything shapeguard keeps for one request, on its response. Every field is assigned in the
 * constructor so all contexts share one shape; the parts that set a field are named beside it.
 */
export class RequestContext {
  /** shapeguard() (or the first guarded route without it): the app's resolved configuration. */
  config: ResolvedConfig | undefined
  /** withShape(): the route's own envelope. */
  shape: RouteShape | undefined
  /** validate()/handle() with a response schema: strips data before the envelope is built. */
  prepare: PrepareData | undefined
  /**
   * validate()/handle() with a response schema: the route's `next`, where an asynchronous
   * response schema's failure goes once the handler has returned.
   */
  next: NextFunction | undefined
  /** The request logger, when it will log this request: the error middleware hands over here. */
  log: RequestLogState | undefined
  /**
   * createRouter(): the method tables of routes that matched the path but not the method, for
   * notFoundHandler()'s 405 (one table as is, an array once there are several).
   */
  allowed: MethodTable | MethodTable[] | undefined

  constructor() {
    this.config = undefined
    this.shape = undefined
    this.prepare = undefined
    this.next = undefined
    this.log = undefined
    this.allowed = undefined
  }
}

/** A host route's `methods` table: lower-case method names, `_all` for `all()`. */
export type MethodTable = Record<string, boolean | undefined>

type WithContext = Response & { [kContext]?: RequestContext }

/**
 * The response's context, created on first use, when the request and the response are also
 * switched to dictionary mode where that helps (see `toDictionaryMode` and object-mode.ts).
 */
export function contextOf(res: Response): RequestContext {
  const r = res as WithContext
  let context = r[kContext]
  if (context === undefined) {
    context = new RequestContext()
    if (dictionaryMode) {
      const req = r.req as Request | undefined
      if (req !== undefined) toDictionaryMode(req, 'res')
      toDictionaryMode(r, 'req')
    }
    r[kContext] = context
  }
  return context
}

/**
 * Puts an Express request or response in V8's dictionary mode by deleting one of its own
 * properties and defining it again, as it was (same value and attributes; only its place in the
 * key order moves).
 *
 * Why (V8 12 and before, Node 22; object-mode.ts says where it runs): Express sets the prototype
 * of every request and response to its app's `app.request` and `app.response`
 * (`Object.setPrototypeOf`). After that, V8 gives the object a hidden class of its own, shared
 * with no other object, for each property added to it (`res.locals`, `req.params`, `req.body`,
 * ...), so every later property read on it, by Node's http code, Express, body-parser or
 * shapeguard, misses V8's inline caches and takes a slow lookup: about 250 ns a read, against
 * 40–50 ns in dictionary mode and 13 ns with a shared hidden class (bench/property-reads.bench.ts).
 * In dictionary mode a read is a hash lookup and an added property a cheap insert.
 * Deleting a property that is not the last one added switches an object to dictionary mode
 * (`req.res` and `res.req` are set before Express adds others; after its prototype change,
 * deleting the last one added does too). Over HTTP (Node 22, Express 5, the recorded run of
 * bench/http.bench.ts in bench/results/http-node22.json), the guarded route takes 122 µs of
 * server CPU per request against 162 µs for the bare Express route. A property that cannot be
 * deleted, or an object that cannot take it back, leaves `o` as it is.
 */
export function toDictionaryMode(o: object, key: string): void {
  const descriptor = Object.getOwnPropertyDescriptor(o, key)
  if (descriptor === undefined || !descriptor.configurable || !Object.isExtensible(o)) return
  if (Reflect.deleteProperty(o, key)) Object.defineProperty(o, key, descriptor)
}

/** The response's context if something made one, without creating it. */
export function peekContext(res: Response): RequestContext | undefined {
  return (res as WithContext)[kContext]
}

/**
 * The configuration this request runs under: its shapeguard() instance's, else the one that
 * instance left on the app (a router's error seen before shapeguard() ran for the response).
 */
export function configOf(req: Request, res: Response): ResolvedConfig | undefined {
  return peekContext(res)?.config ?? (req.app?.locals?.shapeguard as ResolvedConfig | undefined)
}
