import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { errorHandler, handle, shapeguard, validate } from '../../src/index.js'
import { captureLogger, type Express, hosts } from '../support/e2e.js'

// A route's `timeout`: 503 HANDLER_TIMEOUT with Retry-After when the handler has not answered,
// `req.signal` aborted, whatever the handler sends or throws later dropped with one log line.

const Item = z.object({ id: z.string() })

function appOf(express: Express, logger = captureLogger(), format?: 'problem+json') {
  const app = express()
  app.use(express.json())
  app.use(
    shapeguard({
      logger: { instance: logger },
      ...(format === undefined ? {} : { errors: { format } }),
    }),
  )
  return { app, logger }
}

// The request line of a 503 is an error line of its own: anything else would be a logged error.
function errorsBesidesRequestLine(records: ReturnType<typeof captureLogger>['records']) {
  return records.filter((r) => r.level === 'error' && r.meta.status === undefined)
}

const servers: { close(): void }[] = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

describe.each(hosts)('%s', (_, express) => {
  it('answers 503 HANDLER_TIMEOUT with Retry-After when the handler never answers', async () => {
    const { app } = appOf(express)
    app.get('/hang', ...handle({ timeout: 50 }, () => new Promise(() => {})))
    app.use(errorHandler())
    const started = performance.now()
    const res = await request(app).get('/hang')
    expect(res.status).toBe(503)
    expect(res.headers['retry-after']).toBe('5')
    expect(res.body).toMatchObject({
      success: false,
      error: { code: 'HANDLER_TIMEOUT', details: null },
    })
    expect(performance.now() - started).toBeGreaterThanOrEqual(45)
  })

  it('answers in problem+json under that format', async () => {
    const { app } = appOf(express, captureLogger(), 'problem+json')
    app.get(
      '/hang',
      ...handle({ timeout: { handler: 30, retryAfter: 2 } }, () => new Promise(() => {})),
    )
    const res = await request(app).get('/hang')
    expect(res.status).toBe(503)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.headers['retry-after']).toBe('2')
    expect(res.body).toMatchObject({ status: 503, code: 'HANDLER_TIMEOUT' })
  })

  it('takes shapeguard({ timeout }) for every route, a route its own over it', async () => {
    const app = express()
    app.use(shapeguard({ timeout: 30, logger: { instance: captureLogger() } }))
    app.get('/slow', ...handle({}, () => new Promise(() => {})))
    app.get(
      '/patient',
      ...handle({ timeout: 2_000 }, async (_req, res) => {
        await sleep(80)
        res.ok({ data: 'done' })
      }),
    )
    expect((await request(app).get('/slow')).status).toBe(503)
    expect((await request(app).get('/patient')).body).toMatchObject({ data: 'done' })
  })

  it('aborts req.signal with a TimeoutError, and drops the late answer with one log line', async () => {
    const { app, logger } = appOf(express)
    let reason: unknown
    let late: (() => void) | undefined
    const done = new Promise<void>((resolve) => {
      app.get(
        '/late',
        ...handle({ timeout: 30, response: Item }, async (req, res) => {
          req.signal.addEventListener('abort', () => {
            reason = req.signal.reason
          })
          await sleep(100)
          // Every way a handler answers, after its timeout: none may throw or reach the client.
          res.status(200)
          res.setHeader('X-Late', '1')
          res.ok({ data: { id: 'late' } })
          res.json({ late: true })
          late = resolve
          resolve()
        }),
      )
    })
    app.use(errorHandler())
    const res = await request(app).get('/late')
    await done
    await sleep(20)
    expect(late).toBeDefined()
    expect(res.status).toBe(503)
    expect(res.headers['x-late']).toBeUndefined()
    expect((reason as Error).name).toBe('TimeoutError')
    const lines = logger.records.filter((r) => r.message?.includes('late answer was dropped'))
    expect(lines).toHaveLength(1)
    expect(lines[0]!.meta).toMatchObject({
      method: 'GET',
      endpoint: '/late',
      code: 'HANDLER_TIMEOUT',
    })
    expect(errorsBesidesRequestLine(logger.records)).toHaveLength(0)
  })

  it('drops what a handler that ignores the signal throws later, with no error logged', async () => {
    const { app, logger } = appOf(express)
    let threw = false
    app.get(
      '/throws',
      ...handle({ timeout: 30 }, async () => {
        await sleep(80)
        threw = true
        throw new Error('database exploded')
      }),
    )
    app.use(errorHandler())
    const res = await request(app).get('/throws')
    expect(res.status).toBe(503)
    await sleep(100)
    expect(threw).toBe(true)
    expect(errorsBesidesRequestLine(logger.records)).toHaveLength(0)
    expect(JSON.stringify(logger.records)).not.toContain('database exploded')
  })

  it('answers normally when the handler answers in time', async () => {
    const { app, logger } = appOf(express)
    app.get(
      '/quick',
      ...handle({ timeout: 200 }, async (_req, res) => {
        await sleep(5)
        res.ok({ data: 1 })
      }),
    )
    for (let i = 0; i < 20; i++) expect((await request(app).get('/quick')).status).toBe(200)
    expect(logger.records.filter((r) => r.meta.status === 503)).toHaveLength(0)
  })

  it('covers async validation and transform, as the handler', async () => {
    const { app } = appOf(express)
    const Slow = z.object({ n: z.number() }).refine(async () => {
      await sleep(100)
      return true
    })
    let ran = false
    app.post(
      '/slow-schema',
      ...handle({ timeout: 30, body: Slow }, (_req, res) => {
        ran = true
        res.ok({ data: 1 })
      }),
    )
    app.use(errorHandler())
    const res = await request(app).post('/slow-schema').send({ n: 1 })
    expect(res.status).toBe(503)
    await sleep(120)
    expect(ran).toBe(false)
  })

  it('writes no 503 to a client that left mid-handler, and aborts its signal', async () => {
    const { app, logger } = appOf(express)
    let aborted: unknown
    const left = new Promise<void>((resolve) => {
      app.get(
        '/leave',
        ...handle({ timeout: 150 }, async (req) => {
          req.signal.addEventListener('abort', () => {
            aborted = req.signal.reason
            resolve()
          })
          await sleep(400)
        }),
      )
    })
    app.use(errorHandler())
    const server = app.listen(0, '127.0.0.1')
    servers.push(server)
    await new Promise((resolve) => server.once('listening', resolve))
    const { port } = server.address() as AddressInfo
    const req = httpRequest({ host: '127.0.0.1', port, path: '/leave' })
    req.on('error', () => {})
    req.end()
    await sleep(40)
    req.destroy()
    await left
    expect((aborted as Error).name).toBe('StreamClosedError')
    await sleep(200)
    // The deadline left with the client: no 503 was attempted, nothing was logged as dropped.
    expect(logger.records.filter((r) => r.message?.includes('dropped'))).toHaveLength(0)
    expect(errorsBesidesRequestLine(logger.records)).toHaveLength(0)
  })

  it('records the 503 and its code on the request log line', async () => {
    const { app, logger } = appOf(express)
    app.get('/hang', ...handle({ timeout: 20 }, () => new Promise(() => {})))
    await request(app).get('/hang')
    await sleep(10)
    const line = logger.records.find((r) => r.meta.status === 503)
    expect(line?.meta).toMatchObject({ status: 503 })
    expect(JSON.stringify(line)).toContain('HANDLER_TIMEOUT')
  })

  it('gives validate() routes the timeout too', async () => {
    const { app } = appOf(express)
    app.get('/v', validate({ timeout: 20 }), () => {})
    expect((await request(app).get('/v')).status).toBe(503)
  })

  it('times many concurrent requests of several durations, each at its own deadline', async () => {
    const { app } = appOf(express)
    for (const ms of [20, 40, 60])
      app.get(`/t${ms}`, ...handle({ timeout: ms }, () => new Promise(() => {})))
    const agent = request(app)
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const ms = [20, 40, 60][i % 3]!
        const started = performance.now()
        return agent
          .get(`/t${ms}`)
          .then((r) => ({ ms, status: r.status, took: performance.now() - started }))
      }),
    )
    for (const r of results) {
      expect(r.status).toBe(503)
      expect(r.took).toBeGreaterThanOrEqual(r.ms - 2)
    }
  })
})

describe.each(hosts)('req.signal, %s', (_, express) => {
  it('is on every guarded request, untimed too, and aborts when the client leaves', async () => {
    const { app } = appOf(express)
    let reason: unknown
    const left = new Promise<void>((resolve) => {
      app.get(
        '/wait',
        ...handle({}, async (req) => {
          expect(req.signal.aborted).toBe(false)
          req.signal.addEventListener('abort', () => {
            reason = req.signal.reason
            resolve()
          })
          await sleep(300)
        }),
      )
    })
    const server = app.listen(0, '127.0.0.1')
    servers.push(server)
    await new Promise((resolve) => server.once('listening', resolve))
    const { port } = server.address() as AddressInfo
    const req = httpRequest({ host: '127.0.0.1', port, path: '/wait' })
    req.on('error', () => {})
    req.end()
    await sleep(40)
    req.destroy()
    await left
    expect((reason as Error).name).toBe('StreamClosedError')
  })

  it('is the same signal on every read, and a stream route ends its handler timeout with its head', async () => {
    const { app } = appOf(express)
    const Tick = z.object({ n: z.number() })
    app.get(
      '/ticks',
      ...handle({ timeout: 40, events: { tick: Tick } }, async (req, res) => {
        expect(req.signal).toBe(req.signal)
        const stream = res.sse({ heartbeat: false })
        await sleep(90)
        await stream.send('tick', { n: 1 })
        await stream.close()
      }),
    )
    const res = await request(app)
      .get('/ticks')
      .buffer(true)
      .parse((r, done) => {
        let text = ''
        r.on('data', (chunk: Buffer) => (text += chunk))
        r.on('end', () => done(null, text))
      })
    expect(res.status).toBe(200)
    expect(res.body).toContain('event: tick')
    expect(res.body).not.toContain('HANDLER_TIMEOUT')
  })

  it("leaves a request shapeguard does not guard Node's own signal", async () => {
    const app = express()
    let seen: unknown = 'unread'
    app.get('/plain', (req, res) => {
      seen = (req as { signal?: unknown }).signal
      res.end()
    })
    app.use(shapeguard({ logger: { instance: captureLogger() } }))
    app.get('/guarded', ...handle({}, (_req, res) => res.ok({ data: 1 })))
    await request(app).get('/guarded')
    await request(app).get('/plain')
    const major = Number(process.versions.node.split('.')[0])
    if (major >= 24) expect(seen).toBeInstanceOf(AbortSignal)
    else expect(seen).toBeUndefined()
  })
})

describe('the timeout option', () => {
  it.each([
    [0, 'handle(): timeout must be an integer from 1'],
    [-5, 'handle(): timeout must be an integer from 1'],
    [1.5, 'handle(): timeout must be an integer from 1'],
    [{ handler: 'x' }, 'handle(): timeout.handler must be an integer'],
    [{ idel: 5 }, 'idel'],
    ['5', 'timeout: must be milliseconds'],
  ])('refuses %j at definition', (timeout, message) => {
    expect(() => handle({ timeout: timeout as never }, () => {})).toThrow(message)
  })

  it('refuses a bad shapeguard({ timeout }) at mount', () => {
    expect(() => shapeguard({ timeout: 2 ** 31 })).toThrow(
      'timeout: must be an integer from 1 to 2147483647',
    )
  })
})
