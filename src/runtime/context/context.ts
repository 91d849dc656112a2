import type { Request, Response } from 'express'
import type { ResolvedConfig } from '../config/resolve-config.js'
import type { RequestLogState } from '../logging/request-log-state.js'
import type { RouteShape } from '../response/route-shape.js'
import type { PrepareData } from '../response/strip-response.js'

// One global key: shapeguard() from one copy of the package (the ESM build, say) and handle()
// from another (the CJS build) must find the same context, or stripping would silently not run.
// A property, not a WeakMap entry: measured over HTTP, the table cost a guarded request about 15 µs
// more (its entries, keyed by short-lived responses, are work for every garbage collection; on
// Node 20 the GC's share of a loaded guarded server went from 9.1 % to 13.0 %). The property is
// not free either: after Express's Object.setPrototypeOf on every response, V8 adds it by building
// a new map, about 2.4 µs per request.
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
  /** The request logger, when it will log this request: the error middleware hands over here. */
  log: RequestLogState | undefined
  /**
   * createRouter(): the method tables of routes that matched the path but not the method, for
   * notFoundHandler()'s 405 (one table as is, an array once there are several).
   */
  allowed: MethodTable | MethodTable[] | undefined
  /**
   * The guarded query, on Express 5, where `req.query` is a getter that parses the URL on every
   * read: the getter request-fields.ts puts on Express's request object answers this instead.
   */
  query: unknown
  /** shapeguard(): `req.id`, answered by the accessor request-fields.ts puts on Express's request object. */
  id: unknown

  constructor() {
    this.config = undefined
    this.shape = undefined
    this.prepare = undefined
    this.log = undefined
    this.allowed = undefined
    this.query = undefined
    this.id = undefined
  }
}

/** A host route's `methods` table: lower-case method names, `_all` for `all()`. */
export type MethodTable = Record<string, boolean | undefined>

type WithContext = Response & { [kContext]?: RequestContext }

/** The response's context, created on first use. */
export function contextOf(res: Response): RequestContext {
  const r = res as WithContext
  let context = r[kContext]
  if (context === undefined) {
    context = new RequestContext()
    r[kContext] = context
  }
  return context
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
