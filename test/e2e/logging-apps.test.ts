import { EventEmitter } from 'node:events'
import { Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import pino from 'pino'
import request from 'supertest'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import winston from 'winston'
import { winstonAdapter } from '../../src/adapters-winston.js'
import {
  configureLogger,
  errorHandler,
  handle,
  type LoggerOptions,
  logger,
  notFoundHandler,
  shapeguard,
} from '../../src/index.js'
import { resetLogger } from '../../src/runtime/logging/logger.js'
import { type Express, hosts } from '../support/e2e.js'
import { settle } from '../support/log-capture.js'
import { readmeBlocks } from '../support/readme-blocks.js'

// Each shapeguard() keeps its own backend, and a line written inside a request (`logger` or
// `req.log`) goes to that request's backend with its requestId, whatever else the process mounts.

const ID_A = 'req_aaaaaaaaaaaaaaaaaaaaaaaa'
const ID_B = 'req_bbbbbbbbbbbbbbbbbbbbbbbb'
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT = '00f067aa0ba902b7'

/** A line as written, whichever logger wrote it: pino's `msg` and winston's `message` alike. */
interface Line {
  readonly message: unknown
  readonly [key: string]: unknown
}

interface Out {
  readonly lines: Line[]
  readonly stream: Writable
}

function output(): Out {
  const lines: Line[] = []
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const text of String(chunk).split('\n')) {
        if (text === '') continue
        const { msg, message, ...rest } = JSON.parse(text)
        lines.push({ message: msg ?? message, ...rest })
      }
      callback()
    },
  })
  return { lines, stream }
}

const BACKENDS = {
  pino: (out: Out) => pino({ level: 'debug', base: null, timestamp: false }, out.stream),
  winston: (out: Out) =>
    winstonAdapter(
      winston.createLogger({
        level: 'debug',
        format: winston.format.json(),
        transports: [new winston.transports.Stream({ stream: out.stream })],
      }),
    ),
} as const

type Backend = keyof typeof BACKENDS

/** The lines a handler wrote (`handler: …`), as [message, requestId]. */
const written = (out: Out) =>
  out.lines
    .filter((l) => typeof l.message === 'string' && l.message.startsWith('handler: '))
    .map((l) => [l.message, l.requestId])

/** The request lines (those with a status), as [status, requestId]. */
const requestLines = (out: Out) =>
  out.lines.filter((l) => l.status !== undefined).map((l) => [l.status, l.requestId])

// Every way a handler's work goes on after it returns: an await, a timer, a promise chain.
async function work(req: { log: typeof logger }, res: { json(body: unknown): unknown }) {
  logger.info('handler: sync')
  await sleep(1)
  logger.info({ step: 2 }, 'handler: awaited')
  await new Promise<void>((resolve) =>
    setTimeout(() => {
      logger.warn('handler: timer')
      resolve()
    }, 1),
  )
  await Promise.resolve()
    .then(() => logger.info('handler: then'))
    .then(async () => {
      await null
      req.log.info('handler: req.log in a chain')
    })
  req.log.error({ step: 6 }, 'handler: req.log')
  res.json({ ok: true })
}

function app(express: Express, options: LoggerOptions) {
  const server = express()
  server.use(
    shapeguard({ debug: true, logger: options, warnings: { missingResponseSchema: false } }),
  )
  server.get('/work', work as never)
  server.get(
    '/guarded',
    ...handle({}, (req, res) => {
      req.log.info('handler: guarded')
      res.ok({ data: 1 })
    }),
  )
  server.use(errorHandler())
  return server
}

beforeEach(() => resetLogger())
afterEach(() => resetLogger())

describe.each(hosts)('a logger per app on %s', (_, express) => {
  describe.each([
    ['pino', 'winston'],
    ['winston', 'pino'],
  ] as [Backend, Backend][])('first %s, then %s', (first, second) => {
    it("keeps each app's lines on its own backend, with the request's ID on each", async () => {
      const outA = output()
      const outB = output()
      const a = app(express, { instance: BACKENDS[first](outA) })
      const b = app(express, { instance: BACKENDS[second](outB) })
      await Promise.all([
        request(a).get('/work').set('x-request-id', ID_A).expect(200),
        request(b).get('/work').set('x-request-id', ID_B).expect(200),
        request(a).get('/guarded').set('x-request-id', ID_A).expect(200),
      ])
      logger.info('handler: outside any request')
      await settle()
      const handled = (id: string) => [
        ['handler: sync', id],
        ['handler: awaited', id],
        ['handler: timer', id],
        ['handler: then', id],
        ['handler: req.log in a chain', id],
        ['handler: req.log', id],
      ]
      expect(written(outA).sort()).toEqual([...handled(ID_A), ['handler: guarded', ID_A]].sort())
      // Outside a request, `logger` writes through the app mounted last, with no request ID.
      expect(written(outB).sort()).toEqual(
        [...handled(ID_B), ['handler: outside any request', undefined]].sort(),
      )
      expect(requestLines(outA)).toEqual([
        [200, ID_A],
        [200, ID_A],
      ])
      expect(requestLines(outB)).toEqual([[200, ID_B]])
      // The caller's own fields follow the request's.
      expect(outA.lines.find((l) => l.message === 'handler: awaited')).toMatchObject({
        requestId: ID_A,
        step: 2,
      })
    })
  })

  it("keeps the request's context through the JSON body parser, to a guarded route", async () => {
    const out = output()
    const server = express()
    server.use(shapeguard({ debug: true, logger: { instance: BACKENDS.winston(out) } }))
    // Mounted after shapeguard(): the parser reads the body in later events of the socket.
    server.use(express.json())
    server.post(
      '/orders',
      ...handle({}, async (req, res) => {
        await sleep(1)
        logger.info({ items: (req.body as { items: unknown[] }).items.length }, 'handler: body')
        res.created({ data: null })
      }),
    )
    const body = {
      items: Array.from({ length: 500 }, (_, i) => ({ sku: `A-${i}`.padEnd(100, 'x') })),
    }
    await request(server).post('/orders').set('x-request-id', ID_A).send(body).expect(201)
    await settle()
    expect(out.lines.find((l) => l.message === 'handler: body')).toMatchObject({
      requestId: ID_A,
      items: 500,
    })
  })

  it('gives two concurrent requests of one app each its own ID', async () => {
    const out = output()
    const server = app(express, { instance: BACKENDS.pino(out) })
    await Promise.all([
      request(server).get('/work').set('x-request-id', ID_A).expect(200),
      request(server).get('/work').set('x-request-id', ID_B).expect(200),
    ])
    const lines = written(out)
    expect(lines).toHaveLength(12)
    expect(lines.filter(([, id]) => id === ID_A)).toHaveLength(6)
    expect(lines.filter(([, id]) => id === ID_B)).toHaveLength(6)
  })

  it('puts the trace IDs of a traceparent header on a handler line, after the request ID', async () => {
    const out = output()
    const server = app(express, { instance: BACKENDS.pino(out) })
    await request(server)
      .get('/guarded')
      .set('x-request-id', ID_A)
      .set('traceparent', `00-${TRACE}-${PARENT}-01`)
      .expect(200)
    const line = out.lines.find((l) => l.message === 'handler: guarded')!
    expect(Object.keys(line).slice(2, 6)).toEqual([
      'requestId',
      'trace_id',
      'span_id',
      'trace_flags',
    ])
    expect(line).toMatchObject({
      requestId: ID_A,
      trace_id: TRACE,
      span_id: PARENT,
      trace_flags: '01',
    })
  })

  it('applies configureLogger() to every app', async () => {
    const outA = output()
    const outB = output()
    const a = app(express, { instance: BACKENDS.pino(outA) })
    const b = app(express, { instance: BACKENDS.winston(outB) })
    configureLogger({ level: 'error' })
    await request(a).get('/work').set('x-request-id', ID_A).expect(200)
    await request(b).get('/work').set('x-request-id', ID_B).expect(200)
    await settle()
    expect(written(outA)).toEqual([['handler: req.log', ID_A]])
    expect(written(outB)).toEqual([['handler: req.log', ID_B]])
  })

  it("keeps a silent app's handler lines silent, though another app was mounted after it", async () => {
    const silent = express()
    silent.use(shapeguard({ debug: true, logger: { silent: true } }))
    silent.get('/', (_req, res) => {
      logger.error('handler: silent')
      res.json({})
    })
    const out = output()
    app(express, { instance: BACKENDS.pino(out) })
    await request(silent).get('/').expect(200)
    expect(out.lines).toEqual([])
  })

  it("writes req.log for its own app where the async context is lost, and the app's first-request warnings to its own backend", async () => {
    // An emitter made outside any request: its listeners run in the context of whoever emits.
    const bus = new EventEmitter()
    const outA = output()
    const outB = output()
    const a = express()
    a.use(shapeguard({ debug: true, logger: { instance: BACKENDS.pino(outA) } }))
    a.get('/', (req, res) => {
      bus.once('later', () => req.log.info('handler: after the context was lost'))
      res.json({})
    })
    // A route after notFoundHandler(): the first request warns, in development, that it is
    // never reached.
    a.use(notFoundHandler())
    a.get('/late', (_req, res) => res.json({}))
    app(express, { instance: BACKENDS.pino(outB) })
    await request(a).get('/').set('x-request-id', ID_A).expect(200)
    bus.emit('later')
    await settle()
    expect(written(outA)).toEqual([['handler: after the context was lost', ID_A]])
    expect(outA.lines.filter((l) => l.level === 40).map((l) => l.requestId)).toEqual([ID_A])
    // Everything app A wrote went to A's backend: nothing of it reached B's.
    expect(outB.lines).toEqual([])
  })

  // Not a change: req.log stays assignable now that shapeguard() defines it.
  it('lets another middleware assign req.log, as pino-http does', async () => {
    const out = output()
    const own = output()
    const server = express()
    server.use(shapeguard({ debug: true, logger: { instance: BACKENDS.pino(out) } }))
    server.use((req, _res, next) => {
      req.log = BACKENDS.pino(own)
      next()
    })
    server.get('/', (req, res) => {
      req.log.info('handler: own')
      res.json({})
    })
    await request(server).get('/').expect(200)
    expect(written(own)).toEqual([['handler: own', undefined]])
    expect(written(out)).toEqual([])
  })
})

describe.each(hosts)('docs/logging.md on %s', (_, express) => {
  afterEach(() => vi.restoreAllMocks())

  it("handler-log: a handler's lines in development, as docs/logging.md shows", async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    // The guide's block on its given app (shapeguard() with the defaults of development), without
    // the warning its plain route would give once: no response schema.
    const server = express()
    server.use(shapeguard({ debug: true, warnings: { missingResponseSchema: false } }))
    server.use(express.json())
    const orders = new Map([['1', { id: '1', total: 42 }]])
    server.post('/orders/:id/capture', async (req, res) => {
      const order = orders.get(req.params.id)
      logger.warn({ orderId: order?.id }, 'payment retried')
      req.log.info('captured')
      res.ok({ data: order })
    })
    await request(server).post('/orders/1/capture').expect(201)
    await vi.waitUntil(() => write.mock.calls.length >= 4)
    const normalise = (text: string) =>
      text
        .replace(/^\d\d:\d\d:\d\d\.\d{3} /gm, '<time> ')
        .replace(/req_[0-9a-f]{24}/g, 'req_<id>')
        .replace(/ \d+ms /g, ' <n>ms ')
    const shown = readmeBlocks().find((b) => b.output === 'handler-log')!.code
    expect(normalise(write.mock.calls.map((c) => String(c[0])).join(''))).toBe(normalise(shown))
  })
})
