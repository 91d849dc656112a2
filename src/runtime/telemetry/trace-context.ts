import { AsyncLocalStorage } from 'node:async_hooks'
import type { NextFunction, Request, Response } from 'express'
import { activeTraceFields, type TraceFields } from './trace-fields.js'
import { parseTraceparent, type TraceIds } from './traceparent.js'

// Made on the first request that needs it: a process that never sees a valid traceparent header
// without a span never makes one.
let storage: AsyncLocalStorage<TraceIds> | undefined

type Handler = (req: Request, res: Response, next: NextFunction) => void

// The IDs a request's traceparent header gives its handling, when no span gives them and no outer
// step of the request has already put them in place.
function headerIds(header: unknown): TraceIds | undefined {
  if (storage?.getStore() !== undefined || activeTraceFields() !== undefined) return undefined
  return parseTraceparent(header)
}

/**
 * Calls `handler(req, res, next)`. When the request has a valid W3C `traceparent` header and no
 * OpenTelemetry span is active, the call, and with it the rest of the request's handling (the
 * handlers `next` reaches, what they await, the timers they start), runs in a context holding the
 * header's IDs, which `logTraceFields()` reads. Any other request pays for one header lookup.
 */
export function runInTraceContext(
  handler: Handler,
  req: Request,
  res: Response,
  next: NextFunction,
): void {
  const header = req.headers?.traceparent
  const ids = header === undefined ? undefined : headerIds(header)
  if (ids === undefined) {
    handler(req, res, next)
    return
  }
  storage ??= new AsyncLocalStorage()
  storage.run(ids, handler, req, res, next)
}

/**
 * The fields of a log line written now, a new object on each call: the active OpenTelemetry
 * span's, else those of the `traceparent` header of the request being handled, else undefined.
 */
export function logTraceFields(): TraceFields | undefined {
  const fields = activeTraceFields()
  if (fields !== undefined || storage === undefined) return fields
  const ids = storage.getStore()
  return ids && { trace_id: ids.traceId, span_id: ids.spanId, trace_flags: ids.traceFlags }
}
