import { setTimeout as sleep } from 'node:timers/promises'
import { context, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api'
import type { NextFunction, Request, Response } from 'express'
import request from 'supertest'
import { beforeEach, describe, expect, it } from 'vitest'
import { errorHandler, handle, logger } from '../../src/index.js'
import { requestLogger } from '../../src/runtime/logging/request-logger.js'
import { captureLogger, type Express, hosts } from '../support/e2e.js'
import { BACKEND_MODES, type BACKENDS, capture, settle } from '../support/log-capture.js'
import { useInstrumentedSdk } from '../support/otel-instrument.js'

// With OpenTelemetry's SDK, the lines the exported `logger` writes inside a handler carry the
// request's span's IDs, not those of its traceparent header; with the SDK and no span, the
// header's.

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT = '00f067aa0ba902b7'
const VALID = `00-${TRACE}-${PARENT}-01`

type Mode = 'http' | 'own span' | 'no span'

/** A server span the application starts as the root of a trace of its own, not the header's. */
function ownSpan(req: Request, res: Response, next: NextFunction): void {
  const attributes = { 'http.request.method': req.method, 'url.path': req.path }
  const span = trace
    .getTracer('app')
    .startSpan('request', { kind: SpanKind.SERVER, attributes }, ROOT_CONTEXT)
  res.on('finish', () => span.end())
  context.with(trace.setSpan(ROOT_CONTEXT, span), next)
}

function app(express: Express, mode: Mode, backend: (typeof BACKENDS)[number], pretty: boolean) {
  const out = capture()
  const server = express()
  if (mode === 'own span') server.use(ownSpan)
  server.use(requestLogger({ pretty }, true, { stream: out, backend }))
  server.get(
    '/work',
    ...handle({}, async (_req, res) => {
      logger.info({ step: 'sync' }, 'handler line sync')
      await sleep(1)
      logger.info({ step: 'awaited' }, 'handler line awaited')
      await new Promise<void>((resolve) =>
        setTimeout(() => {
          logger.info({ step: 'timer' }, 'handler line timer')
          resolve()
        }, 1),
      )
      res.ok({ data: 1 })
    }),
  )
  server.use(errorHandler({ logger: captureLogger() }))
  return { server, out }
}

/** The trace fields of each of the handler's lines (JSON, or a pretty line's meta). */
function handlerFields(lines: readonly string[], pretty: boolean): unknown[] {
  return lines
    .filter((line) => line.includes('handler line'))
    .map((line) => {
      const { trace_id, span_id, trace_flags } = JSON.parse(
        pretty ? /\{.*\}$/.exec(line)![0] : line,
      )
      return { trace_id, span_id, trace_flags }
    })
}

const sdk = useInstrumentedSdk()

describe.each(hosts)('OpenTelemetry on %s', (_, express) => {
  describe.each([
    ['the HTTP instrumentation', 'http'],
    ['a span the application starts, no instrumentation', 'own span'],
    ['no span', 'no span'],
  ] as const)('with %s', (_, mode) => {
    beforeEach(async () => {
      sdk().instrument({ http: mode === 'http', express: false })
      await sdk().reset()
      return () => sdk().instrument({ http: true, express: true })
    })

    describe.each(BACKEND_MODES)('logging through %s (pretty: %s)', (backend, pretty) => {
      it(
        mode === 'no span'
          ? "gives a handler's lines the header's IDs"
          : "gives a handler's lines the span's IDs, not the header's",
        async () => {
          const { server, out } = app(express, mode, backend, pretty)
          await request(server).get('/work').set('traceparent', VALID).expect(200)
          await settle()
          const spans = (await sdk().spans()).filter((s) => s.kind === SpanKind.SERVER)
          let expected = { trace_id: TRACE, span_id: PARENT, trace_flags: '01' }
          if (mode === 'no span') expect(spans).toHaveLength(0)
          else {
            expect(spans).toHaveLength(1)
            const ids = spans[0]!.spanContext()
            expected = { trace_id: ids.traceId, span_id: ids.spanId, trace_flags: '01' }
            expect(expected.span_id).not.toBe(PARENT)
            // The HTTP instrumentation continues the header's trace; the app's span starts one.
            if (mode === 'own span') expect(expected.trace_id).not.toBe(TRACE)
            else expect(expected.trace_id).toBe(TRACE)
          }
          expect(handlerFields(out.lines(), pretty)).toEqual([expected, expected, expected])
        },
      )
    })
  })
})
