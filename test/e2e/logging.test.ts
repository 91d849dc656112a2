import request from 'supertest'
import { afterEach, describe, expect, it, vi } from 'vitest'
import winston from 'winston'
import Transport from 'winston-transport'
import { z } from 'zod'
import { winstonAdapter } from '../../src/adapters-winston.js'
import {
  AppError,
  configureLogger,
  errorHandler,
  handle,
  type LoggerOptions,
  logger,
  notFoundHandler,
  type ShapeguardConfig,
  shapeguard,
} from '../../src/index.js'
import { resetLogger } from '../../src/runtime/logging/logger.js'
import { requestLogger } from '../../src/runtime/logging/request-logger.js'
import { abandon, arrived, captureLogger, type Express, hosts } from '../support/e2e.js'
import { BACKENDS, capture, settle } from '../support/log-capture.js'

const ID = 'req_0190a1b2c3d4e5f6a7b8c9d0'

function app(express: Express, config: ShapeguardConfig) {
  const app = express()
  app.use(express.json())
  // Every request arrives with a safe upstream ID, which shapeguard() adopts as req.id.
  app.use((req, _res, next) => {
    req.headers['x-request-id'] = ID
    next()
  })
  // Its plain routes have no response schema: the warning would be one more line.
  app.use(shapeguard({ warnings: { missingResponseSchema: false }, ...config }))
  const users = express.Router()
  users.get('/:id', (req, res) => res.ok({ data: { id: req.params.id } }))
  users.delete('/:id', () => {
    throw AppError.notFound('User')
  })
  app.use('/users', users)
  app.get('/crash', () => {
    throw new Error('db down', { cause: new Error('ECONNREFUSED 10.0.0.5:5432') })
  })
  app.use(notFoundHandler())
  app.use(errorHandler())
  return app
}

/** Waits, up to two seconds, for `done()` to hold. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
  expect(done()).toBe(true)
}

afterEach(() => {
  vi.restoreAllMocks()
  resetLogger()
})

describe.each(hosts)('request logging through shapeguard() on %s', (_, express) => {
  it('puts the code and message of a res.fail() answer on its line', async () => {
    const sink = captureLogger()
    const server = express()
    server.use(shapeguard({ debug: true, logger: { instance: sink } }))
    server.post('/quota', (_req, res) =>
      res.fail({ code: 'QUOTA', message: 'Quota used up', status: 402 }),
    )
    await request(server).post('/quota')
    expect(sink.records.filter((r) => r.meta.status === 402)).toMatchObject([
      { level: 'warn', meta: { code: 'QUOTA', message: 'Quota used up' } },
    ])
  })

  it('writes one record per request, carrying the error errorHandler() handled', async () => {
    const sink = captureLogger()
    const server = app(express, { debug: true, logger: { instance: sink } })
    await request(server).get('/users/42')
    await request(server).delete('/users/7')
    await request(server).get('/crash')
    // With an instance the other options keep their defaults: arrival lines too.
    expect(sink.records.filter((r) => r.level === 'debug')).toHaveLength(3)
    sink.records.splice(0, sink.records.length, ...sink.records.filter((r) => r.level !== 'debug'))
    expect(sink.records.map((r) => [r.level, r.meta.status])).toEqual([
      ['info', 200],
      ['warn', 404],
      ['error', 500],
    ])
    expect(sink.records[0]!.meta).toEqual({
      requestId: ID,
      method: 'GET',
      endpoint: '/users/:id',
      status: 200,
      duration_ms: expect.any(Number),
    })
    expect(sink.records[1]!.meta).toMatchObject({
      endpoint: '/users/:id',
      code: 'NOT_FOUND',
      message: 'User not found',
    })
    expect(sink.records[1]!.meta).not.toHaveProperty('stack')
    expect(sink.records[2]!.meta).toMatchObject({
      endpoint: '/crash',
      code: 'INTERNAL_ERROR',
      stack: expect.stringMatching(/^Error: db down\n/),
      cause: { message: 'ECONNREFUSED 10.0.0.5:5432', stack: expect.any(String) },
    })
  })

  it('logs only errors and slow requests in production', async () => {
    const sink = captureLogger()
    const server = app(express, { debug: false, logger: { instance: sink } })
    await request(server).get('/users/42')
    await request(server).get('/nowhere')
    expect(sink.records).toHaveLength(1)
    expect(sink.records[0]).toMatchObject({
      level: 'warn',
      meta: { status: 404, code: 'NOT_FOUND' },
    })
  })

  it('writes the same records through winstonAdapter', async () => {
    const infos: Record<string, unknown>[] = []
    // A transport that keeps the fields of each info object (winston's symbols are its own).
    class Keep extends Transport {
      override log(info: Record<string, unknown>, callback: () => void) {
        infos.push(Object.fromEntries(Object.entries(info)))
        callback()
      }
    }
    const target = winston.createLogger({ level: 'debug', transports: [new Keep()] })
    const server = app(express, { debug: true, logger: { instance: winstonAdapter(target) } })
    await request(server).delete('/users/7')
    // With an instance the other options keep their defaults: arrival lines too.
    expect(infos.filter((i) => i.level !== 'debug')).toEqual([
      {
        level: 'warn',
        requestId: ID,
        method: 'DELETE',
        endpoint: '/users/:id',
        status: 404,
        duration_ms: expect.any(Number),
        code: 'NOT_FOUND',
        message: 'User not found',
      },
    ])
  })

  it('prints pretty lines on stdout in development, one per event', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    const server = app(express, { debug: true, logger: { pretty: true } })
    await request(server).get('/users/42?token=secret')
    await request(server).delete('/users/7')
    await new Promise((resolve) => setTimeout(resolve, 5))
    const text = write.mock.calls.map((c) => String(c[0])).join('')
    const lines = text.split('\n').filter((l) => l !== '')
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} \\[DEBUG\\] >> GET /users/42 \\[${ID}\\]$`),
      ),
      expect.stringMatching(new RegExp(`\\[INFO\\] << 200 GET /users/42 \\d+ms \\[${ID}\\]$`)),
      expect.stringMatching(/\[DEBUG\] >> DELETE \/users\/7 /),
      expect.stringMatching(/\[WARN\] << 404 DELETE \/users\/7 \d+ms /),
      '  NOT_FOUND: User not found',
    ])
    expect(text).not.toContain('secret')
  })

  it('logs a request whose client went away before the response finished, in production too', async () => {
    const sink = captureLogger()
    const server = express()
    server.use(shapeguard({ debug: false, logger: { instance: sink } }))
    // Neither route finishes its response: one never answers, one stops after the head.
    server.get('/wait', (req) => arrived(req))
    server.get('/partial', (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('first half')
      arrived(req)
    })
    await abandon(server, '/wait')
    await until(() => sink.records.length === 1)
    await abandon(server, '/partial')
    await until(() => sink.records.length === 2)
    expect(sink.records).toEqual([
      {
        level: 'warn',
        message: undefined,
        meta: {
          requestId: expect.stringMatching(/^req_/),
          method: 'GET',
          endpoint: '/wait',
          duration_ms: expect.any(Number),
          aborted: true,
        },
      },
      {
        level: 'warn',
        message: undefined,
        meta: {
          requestId: expect.stringMatching(/^req_/),
          method: 'GET',
          endpoint: '/partial',
          status: 200,
          duration_ms: expect.any(Number),
          aborted: true,
        },
      },
    ])
  })

  it('lets configureLogger() silence every instance, and the singleton writes through the same sink', async () => {
    const sink = captureLogger()
    const server = app(express, { debug: true, logger: { instance: sink } })
    logger.info({ userId: 1, password: 'pw' }, 'signed in')
    expect(sink.records[0]).toEqual({
      level: 'info',
      message: 'signed in',
      meta: { userId: 1, password: '[REDACTED]' },
    })
    configureLogger({ silent: true })
    await request(server).get('/users/42')
    logger.error('hidden')
    expect(sink.records).toHaveLength(1)
  })
})

const MARKER = /…\[truncated\]$/

/**
 * shapeguard() with its guards, a validated route and errorHandler(), its requests logged by a
 * request logger mounted before it (it logs them; shapeguard()'s own sees that and stays out) on
 * a chosen backend writing to a capture.
 */
function bodyLoggingApp(
  express: Express,
  backend: (typeof BACKENDS)[number],
  options: LoggerOptions,
) {
  const out = capture()
  const guarded = shapeguard({
    debug: true,
    logger: { instance: captureLogger() },
    warnings: { missingResponseSchema: false },
  })
  const server = express()
  server.use(express.json({ limit: '2mb' }))
  server.use(
    requestLogger({ logIncoming: false, logRequestBody: true, ...options }, true, {
      stream: out,
      backend,
    }),
  )
  server.use(guarded)
  server.post(
    '/users',
    ...handle(
      { body: z.object({ name: z.string(), password: z.string().optional() }) },
      (req, res) => res.created({ data: { name: req.body.name } }),
    ),
  )
  server.get('/export', (_req, res) => res.ok({ data: { text: 'x'.repeat(900_000) } }))
  server.use(errorHandler())
  return { server, out }
}

describe.each(hosts)('logged bodies on %s', (_, express) => {
  describe.each(BACKENDS)('through %s', (backend) => {
    // The body as it is logged: the record's reqBody/resBody, or the pretty line's text after it.
    async function logged(
      pretty: boolean,
      key: 'reqBody' | 'resBody',
      options: LoggerOptions,
      send: (r: ReturnType<typeof request>) => Promise<unknown>,
    ) {
      const { server, out } = bodyLoggingApp(express, backend, { pretty, ...options })
      await send(request(server))
      await settle()
      const text = out.chunks.join('')
      const body = pretty
        ? text
            .split('\n')
            .find((l) => l.startsWith(`  ${key}: `))
            ?.slice(key.length + 4)
        : out.records()[0]?.[key]
      return { text, body }
    }

    it.each([false, true])(
      'a 900 KB body a guard refused is logged redacted, cut at 2 KB (pretty %s)',
      async (pretty) => {
        const { text, body } = await logged(pretty, 'reqBody', {}, async (r) => {
          const res = await r
            .post('/users')
            .send({ password: 'hunter2', name: 'x'.repeat(900_000) })
          expect(res.status).toBe(400)
        })
        expect(Buffer.byteLength(text)).toBeLessThan(3000)
        expect(text).not.toContain('hunter2')
        // {"password":"[REDACTED]","name":"…"} is 35 bytes around the 900,000 x.
        expect(body).toMatch(/^\{"password":"\[REDACTED\]","name":"x+…\[truncated\]$/)
        const kept = (body as string).replace(MARKER, '')
        expect(Buffer.byteLength(kept)).toBe(2048)
      },
    )

    it.each([false, true])(
      'a body the schema refused is cut at the cap too (pretty %s)',
      async (pretty) => {
        const { text, body } = await logged(pretty, 'reqBody', {}, async (r) => {
          const list = Array.from({ length: 900 }, () => 'y'.repeat(1000))
          const res = await r.post('/users').send({ name: 5, list })
          expect(res.status).toBe(422)
        })
        expect(Buffer.byteLength(text)).toBeLessThan(3000)
        expect(body).toMatch(/^\{"name":5,"list":\["y+","y+.*…\[truncated\]$/)
      },
    )

    it.each([false, true])(
      'a valid body under the cap is logged as validated, unknown keys stripped (pretty %s)',
      async (pretty) => {
        const { body } = await logged(pretty, 'reqBody', {}, async (r) => {
          const res = await r.post('/users').send({ name: 'ada', password: 'pw', admin: true })
          expect(res.status).toBe(201)
        })
        const validated = { name: 'ada', password: '[REDACTED]' }
        expect(body).toEqual(pretty ? JSON.stringify(validated) : validated)
      },
    )

    it.each([false, true])(
      'a response body over the cap is cut too, and logBodyMaxBytes moves the cap (pretty %s)',
      async (pretty) => {
        const options = { logRequestBody: false, logResponseBody: true, logBodyMaxBytes: 100 }
        const { text, body } = await logged(pretty, 'resBody', options, (r) => r.get('/export'))
        expect(Buffer.byteLength(text)).toBeLessThan(1000)
        expect(body).toMatch(/^\{"success":true,.*"data":\{"text":"x+…\[truncated\]$/)
        expect(Buffer.byteLength((body as string).replace(MARKER, ''))).toBe(100)
      },
    )
  })
})

describe('logger options', () => {
  it('shapeguard() rejects an unknown logger option, listing the known ones', () => {
    expect(() => shapeguard({ logger: { logRequestBodies: true } as never })).toThrow(
      /logRequestBodies is not an option \(instance, level, pretty, .*logRequestBody, logResponseBody, logBodyMaxBytes, maxBufferBytes, redact, silent\)/,
    )
  })
})
