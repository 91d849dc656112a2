import type { SpanLike } from './otel-api.js'
import { activeSpan, requestSpan } from './request-span.js'
import { isHexId, parseTraceparent } from './traceparent.js'

/**
 * What joins a log line to its trace, under the names OpenTelemetry's own log instrumentations
 * use: lower-case hex, 32, 16 and 2 digits.
 */
export interface TraceFields {
  readonly trace_id: string
  readonly span_id: string
  readonly trace_flags: string
}

/** A request's headers (`req.headers`). */
type Headers = { readonly [name: string]: unknown }

const FLAGS = Array.from({ length: 256 }, (_, n) => n.toString(16).padStart(2, '0'))

// A span's IDs can come from any propagator (B3 IDs may be upper-case): only hex IDs are written.
function hexId(id: unknown, length: number): string | undefined {
  if (typeof id !== 'string') return undefined
  if (isHexId(id, length)) return id
  const lower = id.toLowerCase()
  return isHexId(lower, length) ? lower : undefined
}

/** The fields of a span with a valid context, else undefined. */
export function spanFields(span: SpanLike | undefined): TraceFields | undefined {
  if (span === undefined) return undefined
  const context = span.spanContext()
  const traceId = hexId(context.traceId, 32)
  const spanId = hexId(context.spanId, 16)
  if (traceId === undefined || spanId === undefined) return undefined
  return { trace_id: traceId, span_id: spanId, trace_flags: FLAGS[context.traceFlags & 0xff]! }
}

/**
 * The fields of a request's log lines: its OpenTelemetry span's when it has one (a span
 * `requestSpan()` gave), else its valid `traceparent` header's (the parent's span ID).
 */
export function traceFields(
  span: object | undefined,
  headers: Headers | undefined,
): TraceFields | undefined {
  const fields = spanFields(span as SpanLike | undefined)
  if (fields !== undefined) return fields
  const ids = parseTraceparent(headers?.traceparent)
  return ids && { trace_id: ids.traceId, span_id: ids.spanId, trace_flags: ids.traceFlags }
}

/** `traceFields` with the request's span found now (inside the request's handling). */
export function requestTraceFields(headers: Headers | undefined): TraceFields | undefined {
  return traceFields(requestSpan(), headers)
}

/** The fields of the active OpenTelemetry span (a log call inside a handler), else undefined. */
export function activeTraceFields(): TraceFields | undefined {
  return spanFields(activeSpan())
}
