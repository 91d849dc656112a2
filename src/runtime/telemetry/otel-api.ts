import { tryLoadPeer } from '../core/load-peer.js'

/**
 * The part of `@opentelemetry/api` (1.9 and later) shapeguard uses, written out here so that
 * neither the build nor a user's type check needs the package.
 */
export type AttributeValue = string | number | boolean
export type Attributes = Record<string, AttributeValue>

export interface SpanContextLike {
  readonly traceId: string
  readonly spanId: string
  readonly traceFlags: number
}

export interface SpanLike {
  spanContext(): SpanContextLike
  isRecording(): boolean
  setAttribute(key: string, value: AttributeValue): unknown
  addEvent(name: string, attributes?: Attributes): unknown
  setStatus(status: { code: number }): unknown
}

interface ContextLike {
  getValue(key: symbol): unknown
}

export interface CounterLike {
  add(value: number, attributes?: Attributes): void
}

interface MeterLike {
  createCounter(name: string, options?: { description?: string; unit?: string }): CounterLike
}

export interface MeterProviderLike {
  getMeter(name: string, version?: string): MeterLike
}

export interface OtelApi {
  readonly context: { active(): ContextLike }
  readonly trace: { getSpan(context: ContextLike): SpanLike | undefined }
  readonly metrics: { getMeterProvider(): MeterProviderLike }
  readonly SpanStatusCode: { readonly ERROR: number }
  createContextKey(description: string): symbol
}

// undefined: not looked for yet; null: not installed.
let api: OtelApi | null | undefined

/**
 * `@opentelemetry/api` when it is installed, else null; looked for once, on first use. Whether an
 * SDK is registered is the API's business: without one its context holds no span and its meter
 * provider makes no-op counters.
 */
export function otelApi(): OtelApi | null {
  if (api === undefined) api = tryLoadPeer<OtelApi>('@opentelemetry/api') ?? null
  return api
}

/** Test hook: use this API (null: as if it were not installed; undefined: look for it again). */
export function setOtelApi(value: OtelApi | null | undefined): void {
  api = value
}
