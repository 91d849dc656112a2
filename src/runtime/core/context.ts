import type { NextFunction, Request, Response } from 'express'
import type { JsonWriter } from '../../engine/compile/compile-json.js'
import type { ResolvedConfig } from './config.js'

// One global key: shapeguard() from one copy of the package (the ESM build, say) and handle()
// from another (the CJS build) must find the same context, or stripping would silently not run.
// A property, not a WeakMap entry: a table's entries, keyed by short-lived responses, are work for
// every garbage collection, which made a guarded request dearer over HTTP (bench/http.bench.ts;
// bench/profile-http.ts gives the GC's share).
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
  stripper: ResponseStripper | undefined
  /**
   * validate()/handle() with a response schema: the route's `next`, where an asynchronous
   * response schema's failure goes once the handler has returned.
   */
  next: NextFunction | undefined
  /**
   * validate()/handle() without a response schema and with `warnings.missingResponseSchema: false`
   * sets it false: the success helpers then do not warn that the route has none.
   */
  schemaWarning: boolean
  /** The request logger, when it will log this request: the error middleware hands over here. */
  log: RequestLog | undefined
  /**
   * createRouter(): the method tables of routes that matched the path but not the method, for
   * notFoundHandler()'s 405 (one table as is, an array once there are several).
   */
  allowed: MethodTable | MethodTable[] | undefined
  /**
   * validate()/handle() in development: the error codes the route declares (its `errors` and the
   * codes shapeguard sends for it), for errorHandler()'s warning of an undeclared one.
   */
  declared: ReadonlySet<string> | undefined
  /** validate()/handle() of a route with `events` or `stream`: what `res.sse()`/`res.ndjson()` start. */
  streams: RouteStreams | undefined
  /** `res.sse()`/`res.ndjson()`: the request's stream, open or ended, with its figures. */
  stream: StreamFigures | undefined
  /** `req.signal` (core/request-signal.ts), made on first read. */
  controller: AbortController | undefined
  /** Why the request was aborted (its timeout, the client going, shutdown); undefined while it is not. */
  abortReason: unknown
  /**
   * lifecycle/: the code of the answer that overtook the handler (HANDLER_TIMEOUT, SHUTTING_DOWN):
   * whatever the handler sends or throws later is dropped.
   */
  overtaken: string | undefined
  /** lifecycle/timeouts.ts: `performance.now()` by which the request must be answered, while it is timed. */
  deadline: number
  /** lifecycle/timeouts.ts: the neighbours of the request in its list of timed requests. */
  timedPrev: RequestContext | undefined
  timedNext: RequestContext | undefined
  /** lifecycle/timeouts.ts: the response, while the request is timed. */
  timedRes: Response | undefined
  /** lifecycle/timeouts.ts: the list of timed requests the request is in. */
  timedList: { remove(context: RequestContext): void } | undefined

  constructor() {
    this.config = undefined
    this.shape = undefined
    this.stripper = undefined
    this.next = undefined
    this.schemaWarning = true
    this.log = undefined
    this.allowed = undefined
    this.declared = undefined
    this.streams = undefined
    this.stream = undefined
    this.controller = undefined
    this.abortReason = undefined
    this.overtaken = undefined
    this.deadline = 0
    this.timedPrev = undefined
    this.timedNext = undefined
    this.timedRes = undefined
    this.timedList = undefined
  }
}

/** A compiled `withShape()` argument (response/route-shape.ts), kept for the success helpers. */
export type RouteShape =
  | { readonly raw: true }
  | {
      readonly raw: false
      /** Builds the body; calls `missing(token)` for each `{data.<path>}` that resolves to nothing. */
      build(data: unknown, message: string, missing: (token: string) => void): unknown
    }

/**
 * Strips a success helper's `data` by the response schema (response/strip-response.ts): throws
 * instead of sending bad data, or answers with a promise when the schema is asynchronous.
 */
export interface ResponseStripper {
  (data: unknown): unknown
  /**
   * The stripped data's JSON text in one walk (the compiled writer), or undefined where it does
   * not answer and the stripper and `JSON.stringify` run instead; absent without a compiled path.
   */
  readonly json?: JsonWriter | undefined
}

/**
 * A streaming route's starters (runtime/stream/), compiled once per route: the success helpers
 * `res.sse()` and `res.ndjson()` call the one the route declares (typed in response/stream-types.ts).
 */
export interface RouteStreams {
  /** `events`: starts the route's Server-Sent Events stream. */
  readonly sse: ((res: Response, options: unknown) => unknown) | undefined
  /** `stream`: starts the route's NDJSON stream, or sends `items` and ends it. */
  readonly ndjson: ((res: Response, items: unknown) => unknown) | undefined
}

/** A request's stream (runtime/stream/), as its request log line records it. */
export interface StreamFigures {
  /** Events (SSE) or lines (NDJSON) written, the final error one included. */
  readonly events: number
  /** Bytes of the body written, heartbeats included. */
  readonly bytes: number
  /** `performance.now()` when the stream started. */
  readonly start: number
  /** `performance.now()` when it ended, undefined while it is open. */
  readonly end: number | undefined
  /** The client went before the stream ended. */
  readonly clientGone: boolean
}

/**
 * What the error middleware hands the request logger instead of logging the error a second time;
 * without a logger watching the request, the error middleware logs the error itself.
 */
export interface RequestLogSlot {
  /** The error the error middleware answered with (an AppError), if any. */
  error: unknown
  /** The original thrown value the AppError was made from, when it was not one already. */
  cause: unknown
}

/** The request logger's state for a request it will log (logging/request-log-state.ts). */
export interface RequestLog extends RequestLogSlot {
  readonly req: Request
  /** `performance.now()` when the request arrived. */
  readonly start: number
  /** The request's OpenTelemetry span when it arrived, whose IDs its log lines carry. */
  readonly span: object | undefined
  /** What `res.json` sent, captured with `logResponseBody`. */
  resBody: unknown
  /** The `res.json` the capture wraps, with `logResponseBody`. */
  json: Response['json'] | undefined
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
