import { setTimeout as sleep } from 'node:timers/promises'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { errorHandler, handle, logger, shapeguard } from '../../src/index.js'
import { jsonLine } from '../../src/runtime/logging/json-line.js'
import { requestLogger } from '../../src/runtime/logging/request-logger.js'
import { captureLogger, type Express, hosts } from '../support/e2e.js'
import { BACKEND_MODES, type BACKENDS, capture, settle } from '../support/log-capture.js'
import { NO_SDK_MODES, useNoSdk, useOtelApi } from '../support/otel-without-sdk.js'
import { readmeBlocks } from '../support/readme-blocks.js'

// Without an OpenTelemetry SDK, a request's valid traceparent header joins the lines the exported
// `logger` writes inside its handlers to the caller's trace, as it does the request logger's:
// after an await, in a timer the handler starts, and never mixed between concurrent requests.

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT = '00f067aa0ba902b7'
const VALID = `00-${TRACE}-${PARENT}-01`
const OTHER = { trace_id: 'a'.repeat(31) + '1', span_id: 'b'.repeat(15) + '2', trace_flags: '00' }
const OTHER_HEADER = `00-${OTHER.trace_id}-${OTHER.span_id}-00`
const FIELDS = { trace_id: TRACE, span_id: PARENT, trace_flags: '01' }
const MARK = 'mktplog7d1'

type Backend = (typeof BACKENDS)[number]

const shown = (name: string): string => {
  const block = readmeBlocks().find((b) => b.output === name)
  if (block === undefined) throw new Error(`no block is marked output ${name}`)
  return block.code.trim()
}

// The handler's three lines: before an await, after it, and in a timer it starts.
async function work(req: { params: { id?: string } }, res: { ok(o: object): unknown }) {
  logger.info({ step: 'sync', id: req.params.id }, 'handler line sync')
  await sleep(1)
  logger.info({ step: 'awaited', id: req.params.id }, 'handler line awaited')
  await new Promise<void>((resolve) =>
    setTimeout(() => {
      logger.info({ step: 'timer', id: req.params.id }, 'handler line timer')
      resolve()
    }, 1),
  )
  res.ok({ data: req.params.id })
}

function app(express: Express, backend: Backend, pretty: boolean) {
  const out = capture()
  const server = express()
  server.use(express.json())
  server.use(requestLogger({ pretty }, true, { stream: out, backend }))
  server.get('/work/:id', ...handle({}, work))
  // Two requests meet here: neither answers before both are inside their handler.
  let arrived = 0
  let release: () => void = () => {}
  const both = new Promise<void>((resolve) => {
    release = resolve
  })
  server.get(
    '/pair/:id',
    ...handle({}, async (req, res) => {
      logger.info({ step: 'before', id: req.params.id }, 'handler line before')
      if (++arrived === 2) release()
      await both
      logger.info({ step: 'after', id: req.params.id }, 'handler line after')
      res.ok({ data: 1 })
    }),
  )
  server.get(
    '/own/:id',
    ...handle({}, (_req, res) => {
      logger.info({ trace_id: 'mine', step: 'own' }, 'handler line own')
      res.ok({ data: 1 })
    }),
  )
  server.use(errorHandler({ logger: captureLogger() }))
  return { server, out }
}

interface HandlerLine {
  readonly step: unknown
  readonly id: unknown
  readonly fields: Record<string, unknown>
}

/** The handler's lines, with the trace fields each carries (JSON, or a pretty line's meta). */
function handlerLines(lines: readonly string[], pretty: boolean): HandlerLine[] {
  return lines
    .filter((line) => line.includes('handler line'))
    .map((line) => {
      const record = JSON.parse(pretty ? /\{.*\}$/.exec(line)![0] : line)
      const fields: Record<string, unknown> = {}
      for (const key of ['trace_id', 'span_id', 'trace_flags']) {
        if (key in record) fields[key] = record[key]
      }
      return { step: record.step, id: record.id, fields }
    })
}

useNoSdk()

describe.each(NO_SDK_MODES)('%s', (_, api) => {
  useOtelApi(api)

  describe.each(hosts)('on %s', (_, express) => {
    describe.each(BACKEND_MODES)('logging through %s (pretty: %s)', (backend, pretty) => {
      it("gives a handler's lines the header's IDs, after an await and in a timer", async () => {
        const { server, out } = app(express, backend, pretty)
        await request(server).get('/work/1').set('traceparent', VALID).expect(200)
        await settle()
        expect(handlerLines(out.lines(), pretty)).toEqual([
          { step: 'sync', id: '1', fields: FIELDS },
          { step: 'awaited', id: '1', fields: FIELDS },
          { step: 'timer', id: '1', fields: FIELDS },
        ])
      })

      it('keeps an own __proto__ key of a logged object as data beside the IDs', async () => {
        const { server, out } = app(express, backend, pretty)
        // The guards refuse such a key in a request; an upstream answer parsed in a handler has it.
        server.get(
          '/proto',
          ...handle({}, (_req, res) => {
            logger.info(
              JSON.parse('{"__proto__":{"step":"inherited"},"id":"p"}'),
              'handler line proto',
            )
            res.ok({ data: 1 })
          }),
        )
        await request(server).get('/proto').set('traceparent', VALID).expect(200)
        await settle()
        const line = out.lines().find((l) => l.includes('handler line proto'))!
        // pino 9.0 (the lowest pino the peer range allows) cannot write an own __proto__ key: the
        // line then goes out without the object, and the request is not failed.
        if (backend === 'pino' && process.env.SHAPEGUARD_PEERS === 'lowest') {
          expect(line).toContain('the logger could not write this object')
          expect(handlerLines([line], pretty)[0]!.fields).toEqual(FIELDS)
          return
        }
        expect(line).toContain('"__proto__":{"step":"inherited"}')
        expect(handlerLines([line], pretty)).toEqual([{ step: undefined, id: 'p', fields: FIELDS }])
      })

      it('never mixes the IDs of two concurrent requests', async () => {
        const { server, out } = app(express, backend, pretty)
        await Promise.all([
          request(server).get('/pair/1').set('traceparent', VALID).expect(200),
          request(server).get('/pair/2').set('traceparent', OTHER_HEADER).expect(200),
        ])
        await settle()
        const lines = handlerLines(out.lines(), pretty)
        expect(lines).toHaveLength(4)
        for (const line of lines) {
          expect(line.fields, `${line.step} of request ${line.id}`).toEqual(
            line.id === '1' ? FIELDS : OTHER,
          )
        }
      })

      it("keeps the caller's own fields over the header's", async () => {
        const { server, out } = app(express, backend, pretty)
        await request(server).get('/own/1').set('traceparent', VALID).expect(200)
        await settle()
        expect(handlerLines(out.lines(), pretty)).toEqual([
          { step: 'own', id: undefined, fields: { ...FIELDS, trace_id: 'mine' } },
        ])
      })

      it('adds nothing without a header', async () => {
        const { server, out } = app(express, backend, pretty)
        await request(server).get('/work/1').expect(200)
        await settle()
        const lines = handlerLines(out.lines(), pretty)
        expect(lines.map((l) => l.fields)).toEqual([{}, {}, {}])
      })

      it('adds nothing for an invalid header, and logs nothing of it', async () => {
        const { server, out } = app(express, backend, pretty)
        const invalid = `00-${MARK}${'a'.repeat(22)}-${PARENT}-01`
        await request(server).get('/work/1').set('traceparent', invalid).expect(200)
        await request(server).get('/work/2').set('traceparent', `${VALID}${MARK}`).expect(200)
        await settle()
        const lines = handlerLines(out.lines(), pretty)
        expect(lines.map((l) => l.fields)).toEqual([{}, {}, {}, {}, {}, {}])
        expect(out.lines().join('\n')).not.toContain(MARK)
      })
    })

    describe('under shapeguard()', () => {
      function guarded() {
        const sink = captureLogger()
        const server = express()
        server.use(shapeguard({ debug: true, logger: { instance: sink } }))
        // Not a guarded route: shapeguard() alone gives the handler its context.
        server.get('/plain', async (_req, res) => {
          logger.info({ step: 'sync' }, 'handler line sync')
          await sleep(1)
          logger.info({ step: 'awaited' }, 'handler line awaited')
          res.json({ ok: true })
        })
        server.get('/work/:id', ...handle({}, work))
        server.use(errorHandler())
        return { server, sink }
      }

      const steps = (records: ReturnType<typeof captureLogger>['records']) =>
        records
          .filter((r) => r.message?.startsWith('handler line'))
          .map((r) => ({ step: r.meta.step, trace_id: r.meta.trace_id, span_id: r.meta.span_id }))
      const ids = { trace_id: TRACE, span_id: PARENT }

      it("gives a plain route's and a guarded route's lines the header's IDs", async () => {
        const { server, sink } = guarded()
        await request(server).get('/plain').set('traceparent', VALID).expect(200)
        await request(server).get('/work/1').set('traceparent', VALID).expect(200)
        await request(server).get('/work/2').expect(200)
        expect(steps(sink.records)).toEqual([
          { step: 'sync', ...ids },
          { step: 'awaited', ...ids },
          { step: 'sync', ...ids },
          { step: 'awaited', ...ids },
          { step: 'timer', ...ids },
          { step: 'sync', trace_id: undefined, span_id: undefined },
          { step: 'awaited', trace_id: undefined, span_id: undefined },
          { step: 'timer', trace_id: undefined, span_id: undefined },
        ])
      })

      it("otel-handler-line: a handler's line in production, as docs/logging.md shows", async () => {
        const sink = captureLogger()
        const server = express()
        server.use(shapeguard({ debug: false, logger: { instance: sink } }))
        server.post(
          '/orders/:id/capture',
          ...handle({}, (_req, res) => {
            logger.warn({ orderId: 'ord_42' }, 'payment retried')
            res.ok({ data: null })
          }),
        )
        await request(server)
          .post('/orders/42/capture')
          .set('traceparent', VALID)
          .set('x-request-id', 'req_0190a1b2c3d4e5f6a7b8c9d0')
          .expect(201)
        const record = sink.records.find((r) => r.message === 'payment retried')!
        const doc = JSON.parse(shown('otel-handler-line'))
        const line = jsonLine(record.level, doc.time, record.meta, record.message)
        expect(line.trimEnd()).toBe(shown('otel-handler-line'))
      })
    })
  })
})
