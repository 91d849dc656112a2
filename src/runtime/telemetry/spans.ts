import type { Request } from 'express'
import { dataField, isError } from '../core/safe-read.js'
import { patternOf, routePatternOf } from '../host/route-pattern.js'
import { otelApi, type SpanLike } from './otel-api.js'
import { requestSpan, rpcMetadataOf } from './request-span.js'

// Attribute values are shapeguard's own words and the route as registered: never a request value.

/**
 * Puts the route the request matched, as registered (`/v1/users/:id`), on the request's span as
 * `http.route`, and hands it to the HTTP instrumentation when no framework instrumentation has:
 * that one then names the server span `GET /v1/users/:id` and puts `http.route` on its duration
 * metric. Nothing is read of the request without a span to mark.
 * @param route the route layer's route, when the request is not inside it yet (`req.route` unset)
 */
export function traceRoute(req: Request, route?: object): void {
  const api = otelApi()
  if (api === null) return
  const context = api.context.active()
  const meta = rpcMetadataOf(api, context)
  const span = meta?.span ?? api.trace.getSpan(context)
  if (span === undefined) return
  const pattern = route === undefined ? routePatternOf(req) : patternOf(route, req.app)
  if (pattern === undefined) return
  if (meta !== undefined && meta.route === undefined) meta.route = pattern
  if (span.isRecording()) span.setAttribute('http.route', pattern)
}

/**
 * Marks the request's span with an error answer: `error.type` and `shapeguard.error.code`, and
 * status ERROR for a 5xx only (a 4xx is the client's mistake, not the server's failure).
 * @param type the error code for shapeguard's errors, `errorType(thrown)` for anything else
 */
export function traceError(status: number, code: string, type: string): void {
  const span = requestSpan()
  if (span === undefined || !span.isRecording()) return
  span.setAttribute('error.type', type)
  span.setAttribute('shapeguard.error.code', code)
  if (status >= 500) span.setStatus({ code: otelApi()!.SpanStatusCode.ERROR })
}

/** A span event for a request part that failed validation: the part and how many issues. */
export function traceValidationFailure(part: string, issues: number): void {
  const span = requestSpan()
  if (span === undefined || !span.isRecording()) return
  span.addEvent('shapeguard.validation.failed', {
    'shapeguard.validation.part': part,
    'shapeguard.validation.issue_count': issues,
  })
}

// A class name: letters, digits, `_`, `$` and `.`, not starting with a digit, at most 100.
function isClassName(name: string): boolean {
  if (name.length === 0 || name.length > 100) return false
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i)
    const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x24
    const digit = c >= 0x30 && c <= 0x39
    if (!(letter || (i > 0 && (digit || c === 0x2e)))) return false
  }
  return true
}

/**
 * `error.type` for a thrown value that is not one of shapeguard's errors: an Error's class name
 * (`TypeError`), or `_OTHER` (OpenTelemetry's word for an unknown type) for anything else.
 */
export function errorType(thrown: unknown): string {
  if (!isError(thrown)) return '_OTHER'
  // Read without running a getter: what user code threw may be hostile.
  const name = dataField(thrown, 'name')
  return typeof name === 'string' && isClassName(name) ? name : '_OTHER'
}

/** A stream's figures on the request's span when it ends: events (or lines) and body bytes. */
export function traceStream(span: SpanLike | undefined, events: number, bytes: number): void {
  if (span === undefined || !span.isRecording()) return
  span.setAttribute('shapeguard.stream.events', events)
  span.setAttribute('shapeguard.stream.bytes', bytes)
}
