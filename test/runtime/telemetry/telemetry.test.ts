import { readFileSync } from 'node:fs'
import { context, metrics, type Span, TraceFlags, trace } from '@opentelemetry/api'
import { RPCType, setRPCMetadata } from '@opentelemetry/core'
import type { Request } from 'express'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  countRateLimitRejection,
  countValidationFailure,
  countWebhookVerification,
  resetCounters,
  SCOPE,
} from '../../../src/runtime/telemetry/metrics.js'
import { otelApi, setOtelApi } from '../../../src/runtime/telemetry/otel-api.js'
import { activeSpan, requestSpan } from '../../../src/runtime/telemetry/request-span.js'
import {
  errorType,
  traceError,
  traceRoute,
  traceValidationFailure,
} from '../../../src/runtime/telemetry/spans.js'
import {
  activeTraceFields,
  requestTraceFields,
} from '../../../src/runtime/telemetry/trace-fields.js'
import { type Sdk, startSdk } from '../../support/otel-sdk.js'

const HEADER = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'
const FROM_HEADER = {
  trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
  span_id: '00f067aa0ba902b7',
  trace_flags: '01',
}

/** A request inside a route registered at `path` (an app with no layers: the path is all of it). */
function inRoute(path?: string): Request {
  return { route: path === undefined ? undefined : { path }, app: {} } as unknown as Request
}

function everyCall(): void {
  traceRoute(inRoute('/users/:id'))
  traceValidationFailure('body', 2)
  traceError(500, 'INTERNAL_ERROR', 'TypeError')
  countValidationFailure(inRoute('/users/:id'), 'body')
  countRateLimitRejection(inRoute('/users/:id'))
  countWebhookVerification('github', 'verified')
}

afterEach(() => {
  setOtelApi(undefined)
  resetCounters()
})

describe('without @opentelemetry/api installed', () => {
  beforeAll(() => setOtelApi(null))

  it('finds no span and does nothing', () => {
    setOtelApi(null)
    expect(requestSpan()).toBeUndefined()
    expect(activeSpan()).toBeUndefined()
    expect(activeTraceFields()).toBeUndefined()
    expect(everyCall).not.toThrow()
  })

  it('takes a log line trace fields from a valid traceparent header only', () => {
    setOtelApi(null)
    expect(requestTraceFields({ traceparent: HEADER })).toEqual(FROM_HEADER)
    expect(requestTraceFields({ traceparent: HEADER.toUpperCase() })).toBeUndefined()
    expect(requestTraceFields({})).toBeUndefined()
  })
})

/** A request that records every property read of it. */
function watched(): { req: Request; read: PropertyKey[] } {
  const read: PropertyKey[] = []
  const req = new Proxy({} as Request, {
    get(_, key) {
      read.push(key)
      return undefined
    },
  })
  return { req, read }
}

describe('with @opentelemetry/api and no SDK registered', () => {
  it('reads nothing of the request without a span to mark', () => {
    const { req, read } = watched()
    traceRoute(req)
    expect(otelApi()).not.toBeNull()
    setOtelApi(null)
    traceRoute(req)
    expect(read).toEqual([])
  })

  it('loads the API, finds no span, and does nothing', () => {
    expect(otelApi()).not.toBeNull()
    expect(requestSpan()).toBeUndefined()
    expect(activeTraceFields()).toBeUndefined()
    expect(everyCall).not.toThrow()
    expect(requestTraceFields({ traceparent: HEADER })).toEqual(FROM_HEADER)
  })
})

describe('with the SDK registered', () => {
  let sdk: Sdk
  const tracer = () => trace.getTracer('test')

  beforeAll(() => {
    sdk = startSdk()
  })
  afterAll(async () => {
    await sdk.stop()
  })
  afterEach(() => sdk.reset())

  function inSpan(run: (span: Span) => void): Span {
    return tracer().startActiveSpan('GET', (span) => {
      run(span)
      span.end()
      return span
    })
  }

  it('puts the route, the error and the failed validation on the active span', async () => {
    inSpan(() => {
      traceRoute(inRoute('/users/:id'))
      traceValidationFailure('query', 3)
      traceError(422, 'VALIDATION_ERROR', 'VALIDATION_ERROR')
    })
    const [span] = await sdk.spans()
    expect(span?.attributes).toEqual({
      'http.route': '/users/:id',
      'error.type': 'VALIDATION_ERROR',
      'shapeguard.error.code': 'VALIDATION_ERROR',
    })
    expect(span?.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        'shapeguard.validation.failed',
        { 'shapeguard.validation.part': 'query', 'shapeguard.validation.issue_count': 3 },
      ],
    ])
    expect(span?.status.code).toBe(0)
  })

  it('sets status ERROR on a 5xx only', async () => {
    inSpan(() => traceError(500, 'INTERNAL_ERROR', 'TypeError'))
    inSpan(() => traceError(499, 'CLIENT_CLOSED', 'CLIENT_CLOSED'))
    expect((await sdk.spans()).map((s) => s.status.code)).toEqual([2, 0])
  })

  it('gives log lines the span IDs, over a traceparent header', () => {
    const span = inSpan(() => {
      expect(requestTraceFields({ traceparent: HEADER })).toEqual(activeTraceFields())
    })
    const { traceId, spanId } = span.spanContext()
    inSpan((s) => {
      expect(activeTraceFields()).toEqual({
        trace_id: s.spanContext().traceId,
        span_id: s.spanContext().spanId,
        trace_flags: '01',
      })
    })
    expect(traceId).toMatch(/^[0-9a-f]{32}$/)
    expect(spanId).toMatch(/^[0-9a-f]{16}$/)
  })

  it("reads the HTTP instrumentation's server span under a middleware's span", async () => {
    const server = tracer().startSpan('GET')
    const meta: { type: RPCType; span: Span; route?: string } = { type: RPCType.HTTP, span: server }
    const serverContext = setRPCMetadata(trace.setSpan(context.active(), server), meta)
    context.with(serverContext, () => {
      tracer().startActiveSpan('middleware - shapeguard', (layer) => {
        expect(requestSpan()).toBe(server)
        expect(activeSpan()).toBe(layer)
        expect(requestTraceFields({})?.span_id).toBe(server.spanContext().spanId)
        expect(activeTraceFields()?.span_id).toBe(layer.spanContext().spanId)
        traceRoute(inRoute('/v1/users/:id'))
        traceError(404, 'NOT_FOUND', 'NOT_FOUND')
        layer.end()
      })
    })
    server.end()
    expect(meta.route).toBe('/v1/users/:id')
    const [layer, ended] = await sdk.spans()
    expect(layer?.attributes).toEqual({})
    expect(ended?.attributes).toEqual({
      'http.route': '/v1/users/:id',
      'error.type': 'NOT_FOUND',
      'shapeguard.error.code': 'NOT_FOUND',
    })
  })

  it('leaves a route a framework instrumentation gave the HTTP instrumentation', () => {
    const server = tracer().startSpan('GET')
    const meta = { type: RPCType.HTTP, span: server, route: '/users/:userId' }
    context.with(setRPCMetadata(trace.setSpan(context.active(), server), meta), () => {
      traceRoute(inRoute('/users/:id'))
    })
    server.end()
    expect(meta.route).toBe('/users/:userId')
  })

  it('writes only hex IDs: a propagator upper-case ones lower-cased, anything else not at all', () => {
    const upper = trace.wrapSpanContext({
      traceId: '4BF92F3577B34DA6A3CE929D0E0E4736',
      spanId: '00F067AA0BA902B7',
      traceFlags: TraceFlags.NONE,
    })
    context.with(trace.setSpan(context.active(), upper), () => {
      expect(activeTraceFields()).toEqual({ ...FROM_HEADER, trace_flags: '00' })
      expect(everyCall).not.toThrow()
    })
    const odd = trace.wrapSpanContext({
      traceId: '"},{"x":"4bf92f3577b34da6a3ce9',
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.SAMPLED,
    })
    context.with(trace.setSpan(context.active(), odd), () => {
      expect(activeTraceFields()).toBeUndefined()
      expect(requestTraceFields({ traceparent: HEADER })).toEqual(FROM_HEADER)
    })
  })

  it('counts under OpenTelemetry names, units and attributes, in the shapeguard scope', async () => {
    countValidationFailure(inRoute('/users/:id'), 'body')
    countValidationFailure(inRoute('/users/:id'), 'body')
    countValidationFailure(inRoute(), 'query')
    countRateLimitRejection(inRoute('/login'))
    countWebhookVerification('github', 'verified')
    countWebhookVerification('stripe', 'signature-mismatch')
    const points = await sdk.counters()
    const shown = points.map(({ name, unit, scope, attributes, value }) => ({
      name,
      unit,
      scope,
      attributes,
      value,
    }))
    expect(shown).toEqual([
      {
        name: 'shapeguard.validation.failures',
        unit: '{failure}',
        scope: `shapeguard@${SCOPE.version}`,
        attributes: { 'shapeguard.validation.part': 'body', 'http.route': '/users/:id' },
        value: 2,
      },
      {
        name: 'shapeguard.validation.failures',
        unit: '{failure}',
        scope: `shapeguard@${SCOPE.version}`,
        attributes: { 'shapeguard.validation.part': 'query' },
        value: 1,
      },
      {
        name: 'shapeguard.rate_limit.rejections',
        unit: '{rejection}',
        scope: `shapeguard@${SCOPE.version}`,
        attributes: { 'http.route': '/login' },
        value: 1,
      },
      {
        name: 'shapeguard.webhook.verifications',
        unit: '{verification}',
        scope: `shapeguard@${SCOPE.version}`,
        attributes: {
          'shapeguard.webhook.provider': 'github',
          'shapeguard.webhook.outcome': 'verified',
        },
        value: 1,
      },
      {
        name: 'shapeguard.webhook.verifications',
        unit: '{verification}',
        scope: `shapeguard@${SCOPE.version}`,
        attributes: {
          'shapeguard.webhook.provider': 'stripe',
          'shapeguard.webhook.outcome': 'signature-mismatch',
        },
        value: 1,
      },
    ])
  })

  it('counts through a meter provider registered after the first count', async () => {
    metrics.disable()
    countRateLimitRejection(inRoute('/late'))
    metrics.setGlobalMeterProvider(sdk.meterProvider)
    countRateLimitRejection(inRoute('/late'))
    const late = (await sdk.counters()).filter((p) => p.attributes['http.route'] === '/late')
    expect(late.map((p) => p.value)).toEqual([1])
  })
})

describe('errorType', () => {
  it("is an Error's class name, or _OTHER", () => {
    expect(errorType(new TypeError('x'))).toBe('TypeError')
    expect(errorType(new RangeError('x'))).toBe('RangeError')
    expect(errorType('a string')).toBe('_OTHER')
    expect(errorType(undefined)).toBe('_OTHER')
    const named = (name: string) => Object.assign(new Error('x'), { name })
    expect(errorType(named('MyError$1'))).toBe('MyError$1')
    expect(errorType(named('no spaces'))).toBe('_OTHER')
    expect(errorType(named(''))).toBe('_OTHER')
    expect(errorType(named('1Error'))).toBe('_OTHER')
    expect(errorType(named('E'.repeat(101)))).toBe('_OTHER')
  })
})

describe('SCOPE', () => {
  it("carries the package's version", () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'))
    expect(SCOPE).toEqual({ name: 'shapeguard', version: pkg.version })
  })
})
