import { type OtelApi, otelApi, type SpanLike } from './otel-api.js'

/** What OpenTelemetry's HTTP server instrumentation keeps in the request's context. */
export interface RpcMetadata {
  type?: unknown
  span?: SpanLike
  route?: unknown
}

// The context key of OpenTelemetry's RPC metadata (`getRPCMetadata` of @opentelemetry/core): the
// HTTP instrumentation stores its server span there, and a framework instrumentation the route.
let rpcKey: symbol | undefined

/** The HTTP instrumentation's metadata in a context, or undefined. */
export function rpcMetadataOf(
  api: OtelApi,
  context: { getValue(key: symbol): unknown },
): RpcMetadata | undefined {
  rpcKey ??= api.createContextKey('OpenTelemetry SDK Context Key RPC_METADATA')
  const meta = context.getValue(rpcKey) as RpcMetadata | undefined
  return meta?.type === 'http' && meta.span !== undefined ? meta : undefined
}

/**
 * The request's own span, the HTTP server span, while a request is handled: with the HTTP
 * instrumentation that span even when a framework instrumentation has made a middleware's span the
 * active one; else the active span. Undefined without `@opentelemetry/api`, without an SDK, or
 * outside a span.
 */
export function requestSpan(): SpanLike | undefined {
  const api = otelApi()
  if (api === null) return undefined
  const context = api.context.active()
  return rpcMetadataOf(api, context)?.span ?? api.trace.getSpan(context)
}

/** The active span (a middleware's span under a framework instrumentation), as `requestSpan`. */
export function activeSpan(): SpanLike | undefined {
  const api = otelApi()
  return api === null ? undefined : api.trace.getSpan(api.context.active())
}
