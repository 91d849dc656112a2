import { SpanKind } from '@opentelemetry/api'
import type { ReadableSpan } from '@opentelemetry/sdk-trace'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { errorHandler, handle, shapeguard } from '../../src/index.js'
import { jsonLine } from '../../src/runtime/logging/json-line.js'
import type { LogLevel } from '../../src/runtime/logging/levels.js'
import { captureLogger, type Express, hosts } from '../support/e2e.js'
import { useInstrumentedSdk } from '../support/otel-instrument.js'
import { readmeBlocks } from '../support/readme-blocks.js'

// The OpenTelemetry section of docs/logging.md shows a log line and the span it names, both
// produced here through the SDK and its HTTP and Express instrumentations, on Express 4 and 5.
// What changes from run to run (time, request ID, duration, the server span's ID) is replaced
// with what the guide shows, after checking that the line and the span agree.

const blocks = readmeBlocks()
const shown = (name: string): string => {
  const block = blocks.find((b) => b.output === name)
  if (block === undefined) throw new Error(`no block is marked output ${name}`)
  return block.code.trim()
}

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'

function app(express: Express, sink: ReturnType<typeof captureLogger>) {
  const app = express()
  app.use(shapeguard({ debug: false, logger: { instance: sink } }))
  app.use(express.json())
  app.post(
    '/users',
    ...handle({ body: z.object({ name: z.string(), email: z.email() }) }, (req, res) =>
      res.created({ data: req.body }),
    ),
  )
  app.use(errorHandler())
  return app
}

/** The span as the guide shows it: shapeguard's attributes and events, not the HTTP ones. */
function summary(span: ReadableSpan) {
  const ours = Object.entries(span.attributes).filter(
    ([key]) => key === 'http.route' || key === 'error.type' || key.startsWith('shapeguard.'),
  )
  return {
    name: span.name,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes: Object.fromEntries(ours),
    events: span.events.map((e) => ({ name: e.name, attributes: e.attributes })),
    status: span.status,
  }
}

const sdk = useInstrumentedSdk()

describe.each(hosts)('%s', (_, express) => {
  it('otel-log-line, otel-span: a log line and the span it names, as the guide shows', async () => {
    await sdk().reset()
    const sink = captureLogger()
    await request(app(express, sink)).post('/users').set('traceparent', TRACEPARENT).send({})
    const server = (await sdk().spans()).find((s) => s.kind === SpanKind.SERVER)!
    const record = sink.records.find((r) => r.meta.status === 422)!
    expect(record.meta.span_id).toBe(server.spanContext().spanId)

    const doc = JSON.parse(shown('otel-log-line'))
    const line = JSON.parse(
      jsonLine(record.level as LogLevel, doc.time, record.meta, record.message),
      (key, value) =>
        key === 'requestId' || key === 'duration_ms' || key === 'span_id' ? doc[key] : value,
    )
    expect(JSON.stringify(line)).toBe(shown('otel-log-line'))
    const span = { ...summary(server), spanId: doc.span_id }
    expect(span).toEqual(JSON.parse(shown('otel-span')))
  })
})
