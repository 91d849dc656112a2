import { AsyncLocalStorage } from 'node:async_hooks'
import type { NextFunction, Request, Response } from 'express'
import { activeTraceFields } from '../telemetry/trace-fields.js'
import { parseTraceparent } from '../telemetry/traceparent.js'
import type { AppLog } from './app-log.js'
import type { Logger } from './types.js'

/**
 * The request a log line is written for, and the app whose backend writes it: what `logger`
 * finds, through an `AsyncLocalStorage` context, inside the request's handling (the handlers
 * `next` reaches, what they await, the timers they start).
 */
export class RequestScope {
  /** Undefined for a request no `shapeguard()` saw: its lines go to the default backend. */
  readonly app: AppLog | undefined
  readonly req: Request
  /** `req.log`, made on its first use. */
  child: Logger | undefined

  constructor(app: AppLog | undefined, req: Request) {
    this.app = app
    this.req = req
    this.child = undefined
  }
}

// Made on the first request: a process that serves none never makes one (on Node 22, a context
// once made has Node track every promise of the process).
let storage: AsyncLocalStorage<RequestScope> | undefined

/** The scope of the request being handled, or undefined outside any. */
export function currentScope(): RequestScope | undefined {
  return storage?.getStore()
}

/** True when `req` is handled in its own scope already (an outer `shapeguard()` made it). */
export function inScope(req: Request): boolean {
  return storage !== undefined && storage.getStore()?.req === req
}

/** Calls `next()`, and with it the rest of the request's handling, in `req`'s scope under `app`. */
export function runInScope(app: AppLog, req: Request, next: () => void): void {
  storage ??= new AsyncLocalStorage()
  storage.run(new RequestScope(app, req), next)
}

type Handler = (req: Request, res: Response, next: NextFunction) => void

/**
 * For a request no `shapeguard()` saw (the first guarded route calls it): when the request has a
 * valid W3C `traceparent` header, no OpenTelemetry span is active and no scope holds it yet,
 * `handler(req, res, next)` runs in a scope without an app, so that `logger` lines carry the
 * header's IDs. Any other request pays for one header lookup.
 */
export function runInTraceContext(
  handler: Handler,
  req: Request,
  res: Response,
  next: NextFunction,
): void {
  const header = req.headers?.traceparent
  if (
    header === undefined ||
    storage?.getStore() !== undefined ||
    activeTraceFields() !== undefined ||
    parseTraceparent(header) === undefined
  ) {
    handler(req, res, next)
    return
  }
  storage ??= new AsyncLocalStorage()
  storage.run(new RequestScope(undefined, req), handler, req, res, next)
}
