import { createHmac } from 'node:crypto'
import { context, propagation, SpanKind, trace } from '@opentelemetry/api'
import type { ReadableSpan } from '@opentelemetry/sdk-trace'
import type { NextFunction, Request, Response } from 'express'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  createRouter,
  errorHandler,
  handle,
  logger,
  notFoundHandler,
  verifyWebhook,
} from '../../src/index.js'
import { requestLogger } from '../../src/runtime/logging/request-logger.js'
import { captureLogger, type Express, hosts, type LogRecord } from '../support/e2e.js'
import { BACKEND_MODES, type BACKENDS, capture, settle } from '../support/log-capture.js'
import { useInstrumentedSdk } from '../support/otel-instrument.js'
import type { CounterPoint } from '../support/otel-sdk.js'

// One run of every kind of answer through a real app, with OpenTelemetry's SDK, its HTTP and
// Express instrumentations (or the HTTP one alone), and each log backend in JSON and pretty mode;
// then what the exporters and the log stream hold is checked.

const SECRET = 'it-is-a-secret'
const PARENT = { trace: '4bf92f3577b34da6a3ce929d0e0e4736', span: '00f067aa0ba902b7' }

// Unique strings sent in every part of the requests. The path's may show where a path is logged
// and in the HTTP instrumentation's URL attributes; the query's only in those; the rest nowhere.
const MARK = {
  path: 'mkpath7f3a',
  path2: 'mkpathb81c',
  query: 'mkquery5d2e',
  header: 'mkheader9c41',
  body: 'mkbody3e7f',
  agent: 'mkagent61d0',
  traceparent: `00-mktraceparent${'a'.repeat(20)}-00f067aa0ba902b7-01`,
  signature: 'mksignature0b9a',
} as const
// What the HTTP and Express instrumentations record of the request by design (not shapeguard's).
const REQUEST_KEYS = new Set(['url.path', 'url.query', 'url.full', 'user_agent.original'])
const MAY_HOLD: Record<string, readonly string[]> = {
  [MARK.path]: [...REQUEST_KEYS, 'exception.message', 'exception.stacktrace'],
  [MARK.path2]: [...REQUEST_KEYS],
  [MARK.query]: [...REQUEST_KEYS],
  [MARK.agent]: ['user_agent.original'],
}

type Mode = 'instrumented' | 'http' | 'own span'

function app(express: Express, mode: Mode, backend: (typeof BACKENDS)[number], pretty: boolean) {
  const out = capture()
  const explicit = captureLogger()
  const server = express()
  if (mode === 'own span') server.use(ownSpan)
  server.use(requestLogger({ pretty }, true, { stream: out, backend }))
  // A webhook's signature covers the raw bytes: its route comes before the JSON parser.
  server.post(
    '/hooks/github',
    express.raw({ type: '*/*' }),
    verifyWebhook({ provider: 'github', secret: SECRET }),
    (_req, res) => {
      res.status(204).end()
    },
  )
  server.use(express.json())
  server.post(
    '/users/:id',
    ...handle({ body: z.object({ name: z.string() }) }, (req, res) => {
      logger.info({ step: 'create' }, 'creating a user')
      return res.created({ data: { id: req.params.id } })
    }),
  )
  server.get('/crash', () => {
    throw new TypeError('the handler broke')
  })
  server.get(
    '/limited',
    ...handle({ rateLimit: { windowMs: 60_000, max: 1 } }, (_req, res) => res.ok({ data: 1 })),
  )
  server.get(
    '/quota',
    ...handle({}, (_req, res) => res.fail({ code: 'QUOTA', message: 'Quota used', status: 402 })),
  )
  const items = createRouter()
  items.get('/items/:id', (req, res) => {
    res.json({ id: req.params.id })
  })
  server.use('/v1', items)
  server.use(notFoundHandler(), errorHandler({ logger: explicit }))
  return { server, out, explicit }
}

interface Run {
  readonly spans: ReadableSpan[]
  readonly counters: CounterPoint[]
  readonly lines: string[]
  readonly explicit: LogRecord[]
}

/**
 * An application's own server span, without any instrumentation: the parent from the request's
 * headers, ended when the response is.
 */
function ownSpan(req: Request, res: Response, next: NextFunction): void {
  const parent = propagation.extract(context.active(), req.headers)
  const attributes = { 'http.request.method': req.method, 'url.path': req.path }
  const span = trace
    .getTracer('app')
    .startSpan('request', { kind: SpanKind.SERVER, attributes }, parent)
  res.on('finish', () => span.end())
  context.with(trace.setSpan(parent, span), next)
}

async function run(
  express: Express,
  mode: Mode,
  backend: (typeof BACKENDS)[number],
  pretty: boolean,
) {
  const { server, out, explicit } = app(express, mode, backend, pretty)
  const body = JSON.stringify({ zen: MARK.body })
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`
  const hostile = { 'x-marker': MARK.header, 'user-agent': MARK.agent }
  await request(server)
    .post(`/users/${MARK.path}?q=${MARK.query}`)
    .set({ ...hostile, traceparent: `00-${PARENT.trace}-${PARENT.span}-01` })
    .send({ name: 5, other: MARK.body })
    .expect(422)
  await request(server).post('/users/7').set(hostile).send({ name: MARK.body }).expect(201)
  await request(server).get('/crash').set(hostile).expect(500)
  await request(server).get('/limited').expect(200)
  await request(server).get('/limited').set(hostile).expect(429)
  await request(server).get('/quota').set(hostile).expect(402)
  await request(server)
    .post('/hooks/github')
    .set({ ...hostile, 'content-type': 'application/json', 'x-hub-signature-256': signature })
    .send(body)
    .expect(204)
  await request(server)
    .post('/hooks/github')
    .set({
      ...hostile,
      'content-type': 'application/json',
      'x-hub-signature-256': `sha256=${MARK.signature}`,
    })
    .send(body)
    .expect(401)
  await request(server)
    .get(`/v1/items/${MARK.path2}`)
    .set({ ...hostile, traceparent: MARK.traceparent })
    .expect(200)
  await request(server).delete('/v1/items/9').set(hostile).expect(405)
  await request(server).get(`/nowhere/${MARK.path}`).set(hostile).expect(404)
  await settle()
  return {
    spans: await sdk().spans(),
    counters: await sdk().counters(),
    lines: out.lines(),
    explicit: explicit.records,
  } satisfies Run
}

/** The server span of each request, by the route or path it was named or marked with. */
function serverSpans(spans: readonly ReadableSpan[]) {
  return spans.filter((s) => s.kind === SpanKind.SERVER)
}

function serverSpan(spans: readonly ReadableSpan[], method: string, path: string): ReadableSpan {
  const found = serverSpans(spans).filter(
    (s) => s.attributes['http.request.method'] === method && s.attributes['url.path'] === path,
  )
  expect(found, `${method} ${path}`).toHaveLength(1)
  return found[0]!
}

interface LineIds {
  readonly trace_id: string
  readonly span_id: string
  readonly trace_flags: string
}

const PRETTY_IDS = / trace_id=([0-9a-f]{32}) span_id=([0-9a-f]{16}) trace_flags=([0-9a-f]{2})/

/** The trace fields of a log line, JSON or pretty (a request line's text, or a meta object). */
function idsOf(line: string, pretty: boolean): LineIds | undefined {
  if (pretty) {
    const text = PRETTY_IDS.exec(line)
    if (text) return { trace_id: text[1]!, span_id: text[2]!, trace_flags: text[3]! }
    const meta = /\{.*\}$/.exec(line)
    return meta ? idsIn(JSON.parse(meta[0])) : undefined
  }
  return idsIn(JSON.parse(line))
}

function idsIn(record: Record<string, unknown>): LineIds | undefined {
  const { trace_id, span_id, trace_flags } = record
  if (trace_id === undefined && span_id === undefined && trace_flags === undefined) return undefined
  return { trace_id, span_id, trace_flags } as LineIds
}

const sdk = useInstrumentedSdk()

describe.each(hosts)('OpenTelemetry on %s', (_, express) => {
  describe.each([
    ['the HTTP and Express instrumentations', 'instrumented'],
    ['the HTTP instrumentation alone', 'http'],
    ['a span the application starts, no instrumentation', 'own span'],
  ] as const)('with %s', (_, mode) => {
    describe.each(BACKEND_MODES)('logging through %s (pretty: %s)', (backend, pretty) => {
      let result: Run

      beforeAll(async () => {
        sdk().instrument({ http: mode !== 'own span', express: mode === 'instrumented' })
        await sdk().reset()
        result = await run(express, mode, backend, pretty)
        sdk().instrument({ http: true, express: true })
      })

      it('puts the route as registered on each server span', () => {
        const { spans } = result
        const route = (method: string, path: string) =>
          serverSpan(spans, method, path).attributes['http.route']
        const limited = serverSpans(spans).filter((s) => s.attributes['url.path'] === '/limited')
        expect(limited.map((s) => s.attributes['http.route'])).toEqual(['/limited', '/limited'])
        expect(route('POST', `/users/${MARK.path}`)).toBe('/users/:id')
        expect(route('POST', '/users/7')).toBe('/users/:id')
        expect(route('GET', `/v1/items/${MARK.path2}`)).toBe('/v1/items/:id')
        if (mode === 'own span') return
        // The HTTP instrumentation names the span by it.
        expect(serverSpan(spans, 'GET', `/v1/items/${MARK.path2}`).name).toBe('GET /v1/items/:id')
        expect(serverSpan(spans, 'POST', '/users/7').name).toBe('POST /users/:id')
      })

      it('marks error answers with error.type and shapeguard.error.code, ERROR on a 5xx only', () => {
        const { spans } = result
        const marks = (method: string, path: string) => {
          const { attributes, status } = serverSpan(spans, method, path)
          return [attributes['error.type'], attributes['shapeguard.error.code'], status.code]
        }
        expect(marks('POST', `/users/${MARK.path}`)).toEqual([
          'VALIDATION_ERROR',
          'VALIDATION_ERROR',
          0,
        ])
        // On a 5xx the HTTP instrumentation sets error.type to the status when the span ends.
        expect(marks('GET', '/crash')).toEqual([
          mode === 'own span' ? 'TypeError' : '500',
          'INTERNAL_ERROR',
          2,
        ])
        const limited = serverSpans(spans).filter((s) => s.attributes['url.path'] === '/limited')
        expect(limited.map((s) => s.attributes['shapeguard.error.code'])).toEqual([
          undefined,
          'RATE_LIMIT_EXCEEDED',
        ])
        expect(marks('GET', '/quota')).toEqual(['QUOTA', 'QUOTA', 0])
        const hooks = serverSpans(spans).filter((s) => s.attributes['url.path'] === '/hooks/github')
        expect(hooks.map((s) => s.attributes['shapeguard.error.code'])).toEqual([
          undefined,
          'WEBHOOK_SIGNATURE_INVALID',
        ])
        expect(marks('DELETE', '/v1/items/9')).toEqual([
          'METHOD_NOT_ALLOWED',
          'METHOD_NOT_ALLOWED',
          0,
        ])
        expect(marks('GET', `/nowhere/${MARK.path}`)).toEqual(['NOT_FOUND', 'NOT_FOUND', 0])
        expect(marks('POST', '/users/7')).toEqual([undefined, undefined, 0])
      })

      it('adds an event for a failed validation: the part and how many issues', () => {
        const events = serverSpans(result.spans).flatMap((s) =>
          s.events.filter((e) => e.name.startsWith('shapeguard.')),
        )
        expect(events.map((e) => [e.name, e.attributes])).toEqual([
          [
            'shapeguard.validation.failed',
            { 'shapeguard.validation.part': 'body', 'shapeguard.validation.issue_count': 1 },
          ],
        ])
      })

      it('counts validation failures, rate-limit rejections and webhook verifications', () => {
        const ours = result.counters
          .filter((p) => p.scope.startsWith('shapeguard@'))
          .map((p) => [p.name, p.attributes, p.value])
        expect(ours).toEqual([
          [
            'shapeguard.validation.failures',
            { 'http.route': '/users/:id', 'shapeguard.validation.part': 'body' },
            1,
          ],
          ['shapeguard.rate_limit.rejections', { 'http.route': '/limited' }, 1],
          [
            'shapeguard.webhook.verifications',
            { 'shapeguard.webhook.provider': 'github', 'shapeguard.webhook.outcome': 'verified' },
            1,
          ],
          [
            'shapeguard.webhook.verifications',
            {
              'shapeguard.webhook.provider': 'github',
              'shapeguard.webhook.outcome': 'signature-mismatch',
            },
            1,
          ],
        ])
      })

      // Only the HTTP instrumentation records it.
      if (mode !== 'own span')
        it("gives the HTTP instrumentation's duration metric the route", () => {
          const routes = result.counters
            .filter((p) => p.name === 'http.server.request.duration')
            .map((p) => p.attributes['http.route'])
          expect(routes).toContain('/users/:id')
          expect(routes).toContain('/v1/items/:id')
        })

      it('joins every log line to its request span', () => {
        const { spans, lines } = result
        const servers = serverSpans(spans)
        const byTrace = new Map(servers.map((s) => [s.spanContext().traceId, s]))
        // A pretty line's continuation lines (error, stack) are indented: they belong to it.
        const heads = lines.filter((line) => !line.startsWith(' '))
        const ids = heads.map((line) => [line, idsOf(line, pretty)] as const)
        for (const [line, found] of ids) {
          expect(found, line).toBeDefined()
          const server = byTrace.get(found!.trace_id)
          expect(server, line).toBeDefined()
          expect(found!.trace_flags, line).toBe('01')
          const inTrace = spans
            .filter((s) => s.spanContext().traceId === found!.trace_id)
            .map((s) => s.spanContext().spanId)
          expect(inTrace, line).toContain(found!.span_id)
        }
        // The request logger's lines name the server span; the first request's trace is the
        // one its traceparent header started, the marked header's is a new one.
        const first = serverSpan(spans, 'POST', `/users/${MARK.path}`).spanContext()
        expect(first.traceId).toBe(PARENT.trace)
        // Its arrival line and its response line.
        const requestLines = ids.filter(([, found]) => found?.trace_id === PARENT.trace)
        expect(requestLines.map(([, found]) => found)).toEqual([
          { trace_id: PARENT.trace, span_id: first.spanId, trace_flags: '01' },
          { trace_id: PARENT.trace, span_id: first.spanId, trace_flags: '01' },
        ])
        const inside = ids.filter(([line]) => line.includes('creating a user'))
        expect(inside).toHaveLength(1)
        const created = serverSpan(spans, 'POST', '/users/7').spanContext()
        expect(inside[0]![1]!.trace_id).toBe(created.traceId)
      })

      it("joins the error middleware's own lines to the request span", () => {
        const { spans, explicit } = result
        const validation = serverSpan(spans, 'POST', `/users/${MARK.path}`).spanContext()
        expect(explicit.find((r) => r.meta.code === 'VALIDATION_ERROR')?.meta).toMatchObject({
          trace_id: validation.traceId,
          span_id: validation.spanId,
          trace_flags: '01',
        })
        for (const record of explicit) {
          const server = serverSpans(spans).find(
            (s) => s.spanContext().spanId === record.meta.span_id,
          )
          expect(server, JSON.stringify(record)).toBeDefined()
        }
        expect(explicit.map((r) => r.meta.code)).toEqual([
          'VALIDATION_ERROR',
          'INTERNAL_ERROR',
          'RATE_LIMIT_EXCEEDED',
          'WEBHOOK_SIGNATURE_INVALID',
          'METHOD_NOT_ALLOWED',
          'NOT_FOUND',
        ])
      })

      it('holds no request value in any attribute, event, metric label or log line', () => {
        const { spans, counters, lines, explicit } = result
        const found: string[] = []
        const look = (where: string, key: string, value: unknown) => {
          const text = typeof value === 'string' ? value : JSON.stringify(value)
          for (const mark of Object.values(MARK)) {
            if (text?.includes(mark) && !(MAY_HOLD[mark] ?? []).includes(key))
              found.push(`${where} ${key}: ${text}`)
          }
        }
        // The client spans are supertest's own requests, which the HTTP instrumentation traces.
        for (const span of spans.filter((s) => s.kind !== SpanKind.CLIENT)) {
          look(`span ${span.name}`, 'name', span.name)
          for (const [key, value] of Object.entries(span.attributes))
            look(`span ${span.name}`, key, value)
          for (const event of span.events)
            for (const [key, value] of Object.entries(event.attributes ?? {}))
              look(`event ${event.name}`, key, value)
        }
        for (const point of counters.filter((p) => !p.name.startsWith('http.client.')))
          for (const [key, value] of Object.entries(point.attributes))
            look(`metric ${point.name}`, key, value)
        // Log lines may name the path and what a schema expected, nothing else.
        const logged = [...lines, ...explicit.map((r) => `${r.message} ${JSON.stringify(r.meta)}`)]
        for (const line of logged)
          for (const mark of Object.values(MARK))
            if (line.includes(mark) && mark !== MARK.path && mark !== MARK.path2)
              found.push(`log: ${line}`)
        expect(found).toEqual([])
      })
    })
  })
})
