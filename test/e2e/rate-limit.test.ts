import { MemoryStore as ErlMemoryStore } from 'express-rate-limit'
import request from 'supertest'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  configureLogger,
  errorHandler,
  handle,
  type RateLimitEntry,
  type RateLimitOptions,
  shapeguard,
  validate,
} from '../../src/index.js'
import { resetProxyWarnings } from '../../src/runtime/rate-limit/client-key.js'
import { resetStoreFailureReports } from '../../src/runtime/rate-limit/store-failures.js'
import { captureLogger, type Express, hosts, withLogging } from '../support/e2e.js'

beforeAll(() => {
  configureLogger({ silent: true })
})
afterEach(() => {
  resetProxyWarnings()
  resetStoreFailureReports()
  configureLogger({ silent: true })
})

const Body = z.object({ name: z.string().min(1) })

function limitedApp(
  express: Express,
  rateLimit: RateLimitOptions,
  options: {
    debug?: boolean
    trustProxy?: unknown
    logger?: ReturnType<typeof captureLogger>
    onlyItems?: boolean
  } = {},
) {
  const app = express()
  if (options.trustProxy !== undefined) app.set('trust proxy', options.trustProxy)
  app.use(
    shapeguard({
      debug: options.debug ?? true,
      ...(options.logger ? { logger: { instance: options.logger } } : {}),
    }),
  )
  app.use(express.json())
  if (!options.onlyItems) {
    app.post('/users', validate({ body: Body, rateLimit }), (req, res) => {
      res.created({ data: req.body })
    })
  }
  app.get(
    '/items/:id',
    ...handle({ rateLimit }, (req, res) => res.ok({ data: { id: req.params.id } })),
  )
  app.get('/free', (_req, res) => res.ok({ data: null }))
  app.use(errorHandler())
  return app
}

const post = (app: ReturnType<Express>) =>
  request(app).post('/users').set('Content-Type', 'application/json')

describe.each(hosts)('%s: per-route rateLimit', (_name, express) => {
  it('lets max requests through, then answers 429 RATE_LIMIT_EXCEEDED with Retry-After', async () => {
    const app = limitedApp(express, { windowMs: 60_000, max: 2, message: 'Slow down' })
    for (const remaining of [1, 0]) {
      const ok = await post(app).send({ name: 'a' })
      expect(ok.status).toBe(201)
      expect(ok.headers['ratelimit-limit']).toBe('2')
      expect(ok.headers['ratelimit-remaining']).toBe(String(remaining))
      expect(Number(ok.headers['ratelimit-reset'])).toBeGreaterThan(58)
    }
    const over = await post(app).send({ name: 'a' })
    expect(over.status).toBe(429)
    expect(over.body).toEqual({
      success: false,
      message: 'Slow down',
      error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Slow down', details: { retryAfter: 60 } },
    })
    expect(over.headers['retry-after']).toBe('60')
    expect(over.headers['ratelimit-remaining']).toBe('0')
  })

  it('sends the 429 with its details in production too, with the default message', async () => {
    const app = limitedApp(express, { windowMs: 30_000, max: 0 }, { debug: false })
    const res = await request(app).get('/items/1')
    expect(res.status).toBe(429)
    expect(res.body.error).toEqual({
      code: 'RATE_LIMIT_EXCEEDED',
      message: 'Too many requests',
      details: { retryAfter: 30 },
    })
  })

  it('runs after the guards and before validation: a 422 counts and carries the headers', async () => {
    const app = limitedApp(express, { windowMs: 60_000, max: 2 })
    const guarded = await post(app).send('{"__proto__": {}}')
    expect(guarded.status).toBe(400)
    expect(guarded.headers['ratelimit-limit']).toBeUndefined()
    const invalid = await post(app).send({ name: '' })
    expect(invalid.status).toBe(422)
    expect(invalid.headers['ratelimit-remaining']).toBe('1')
    expect((await post(app).send({ name: 'a' })).status).toBe(201)
    const over = await post(app).send({ name: '' })
    expect(over.status).toBe(429)
  })

  it('counts each route on its own and leaves unlimited routes alone', async () => {
    const app = limitedApp(express, { windowMs: 60_000, max: 1 })
    expect((await request(app).get('/items/1')).status).toBe(200)
    expect((await request(app).get('/items/1')).status).toBe(429)
    // The default key is the route as registered and the client: another id is the
    // same route, so the same count.
    expect((await request(app).get('/items/2')).status).toBe(429)
    expect((await post(app).send({ name: 'a' })).status).toBe(201)
    const free = await request(app).get('/free')
    expect(free.status).toBe(200)
    expect(free.headers['ratelimit-limit']).toBeUndefined()
  })

  it('gives exactly max passes to 50 concurrent requests', async () => {
    const app = limitedApp(express, { windowMs: 60_000, max: 10 })
    const server = app.listen(0, '127.0.0.1')
    try {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => request(server).get('/items/1')),
      )
      const statuses = answers.map((r) => r.status)
      expect(statuses.filter((s) => s === 200)).toHaveLength(10)
      expect(statuses.filter((s) => s === 429)).toHaveLength(40)
    } finally {
      server.close()
    }
  })

  it('opens a new window once the old one has ended', async () => {
    const app = limitedApp(express, { windowMs: 300, max: 1 })
    expect((await request(app).get('/items/1')).status).toBe(200)
    expect((await request(app).get('/items/1')).status).toBe(429)
    await new Promise((r) => setTimeout(r, 350))
    const again = await request(app).get('/items/1')
    expect(again.status).toBe(200)
    expect(again.headers['ratelimit-remaining']).toBe('0')
  })

  it('never lets a spoofed X-Forwarded-For bypass the limit, and warns once', () =>
    withLogging(async () => {
      const logger = captureLogger()
      const app = limitedApp(express, { windowMs: 60_000, max: 1 }, { logger })
      for (const [i, status] of [200, 429, 429].entries()) {
        const res = await request(app).get('/items/1').set('X-Forwarded-For', `10.0.0.${i}`)
        expect(res.status).toBe(status)
      }
      const warnings = logger.records.filter((r) => r.message?.startsWith('shapeguard rateLimit'))
      expect(warnings, JSON.stringify(logger.records)).toHaveLength(1)
      expect(warnings[0]?.message).toMatch(/X-Forwarded-For .* 'trust proxy' setting is off/)
      expect(JSON.stringify(logger.records)).not.toContain('10.0.0.')
    }))

  it("warns once when 'trust proxy' is true", () =>
    withLogging(async () => {
      const logger = captureLogger()
      const app = limitedApp(express, { windowMs: 60_000, max: 5 }, { logger, trustProxy: true })
      await request(app).get('/items/1')
      await request(app).get('/items/1')
      const warnings = logger.records.filter((r) => r.message?.startsWith('shapeguard rateLimit'))
      expect(warnings.map((w) => w.message)).toEqual([
        expect.stringMatching(/'trust proxy' setting is true/),
      ])
    }))

  it('keys IPv6 clients by their /56 prefix behind a trusted proxy', async () => {
    const app = limitedApp(express, { windowMs: 60_000, max: 2 }, { trustProxy: 'loopback' })
    const from = (ip: string) => request(app).get('/items/1').set('X-Forwarded-For', ip)
    expect((await from('2001:db8:1:100::1')).status).toBe(200)
    expect((await from('2001:db8:1:1ff:ffff::9')).status).toBe(200)
    expect((await from('2001:db8:1:142::abcd')).status).toBe(429)
    // Another /56, and IPv4 clients, are other clients.
    expect((await from('2001:db8:1:200::1')).status).toBe(200)
    expect((await from('192.0.2.1')).status).toBe(200)
    expect((await from('192.0.2.2')).status).toBe(200)
  })

  it('uses keyGenerator for the client, still one count per route', async () => {
    const app = limitedApp(express, {
      windowMs: 60_000,
      max: 1,
      keyGenerator: (req) => String(req.headers['x-api-key'] ?? 'anonymous'),
    })
    const as = (key: string) => request(app).get('/items/1').set('X-Api-Key', key)
    expect((await as('k1')).status).toBe(200)
    expect((await as('k1')).status).toBe(429)
    expect((await as('k2')).status).toBe(200)
    // Same key on another route: its own count.
    expect((await post(app).set('X-Api-Key', 'k1').send({ name: 'a' })).status).toBe(201)
  })
})

/** The get/set store contract, with an await in each call, as a remote store would have. */
function getSetStore() {
  const map = new Map<string, RateLimitEntry>()
  const tick = () => new Promise((r) => setImmediate(r))
  return {
    map,
    async get(key: string) {
      await tick()
      return map.get(key) ?? null
    },
    async set(key: string, entry: RateLimitEntry) {
      await tick()
      map.set(key, { ...entry })
    },
  }
}

describe.each(hosts)('%s: rate-limit stores', (_name, express) => {
  async function burst(app: ReturnType<Express>, n: number) {
    const server = app.listen(0, '127.0.0.1')
    try {
      const answers = await Promise.all(
        Array.from({ length: n }, () => request(server).get('/items/1')),
      )
      return answers.map((r) => r.status)
    } finally {
      server.close()
    }
  }

  it('runs the window over a get/set store, exactly, under concurrency', async () => {
    const store = getSetStore()
    const statuses = await burst(limitedApp(express, { windowMs: 60_000, max: 5, store }), 30)
    expect(statuses.filter((s) => s === 200)).toHaveLength(5)
    const [entry] = [...store.map.values()]
    // A request over the limit leaves the entry unchanged.
    expect(entry?.count).toBe(5)
    expect([...store.map.keys()]).toEqual(['GET /items/:id|127.0.0.1'])
  })

  it("prefers a store's atomic increment(key, windowMs, max)", async () => {
    const calls: unknown[][] = []
    const counts = new Map<string, RateLimitEntry>()
    const store = {
      async increment(key: string, windowMs: number, max: number) {
        calls.push([key, windowMs, max])
        const e = counts.get(key) ?? { count: 0, reset: Date.now() + windowMs }
        if (e.count >= max) return { count: e.count + 1, reset: e.reset }
        e.count++
        counts.set(key, e)
        return { ...e }
      },
    }
    const statuses = await burst(limitedApp(express, { windowMs: 9_000, max: 3, store }), 6)
    expect(statuses.filter((s) => s === 200)).toHaveLength(3)
    expect(calls[0]).toEqual(['GET /items/:id|127.0.0.1', 9_000, 3])
  })

  it('takes any express-rate-limit Store', async () => {
    const store = new ErlMemoryStore()
    const rateLimit = { windowMs: 60_000, max: 4, store }
    const statuses = await burst(limitedApp(express, rateLimit, { onlyItems: true }), 10)
    expect(statuses.filter((s) => s === 200)).toHaveLength(4)
    // init() gave it this route's window: it cannot serve a second route.
    expect(() => limitedApp(express, rateLimit, { onlyItems: true })).toThrow(
      /already used by another route/,
    )
  })

  it('lets requests through a failing store (failOpen) and logs once a minute', () =>
    withLogging(async () => {
      const logger = captureLogger()
      const store = {
        get: async () => {
          throw Object.assign(new Error('connection refused to /items/1:127.0.0.1'), {
            code: 'ECONNREFUSED',
          })
        },
        set: async () => {},
      }
      const app = limitedApp(express, { windowMs: 60_000, max: 1, store }, { logger })
      for (let i = 0; i < 3; i++) {
        const res = await request(app).get('/items/1')
        expect(res.status).toBe(200)
        expect(res.headers['ratelimit-limit']).toBeUndefined()
      }
      const errors = logger.records.filter((r) => r.level === 'error')
      expect(errors).toHaveLength(1)
      expect(errors[0]?.meta).toMatchObject({ errorCode: 'ECONNREFUSED', errorName: 'Error' })
      expect(JSON.stringify(errors)).not.toContain('/items/1')
    }))

  it('answers 503 RATE_LIMIT_UNAVAILABLE for a failing store with failOpen: false', async () => {
    const store = {
      increment: async (): Promise<RateLimitEntry> => {
        throw new Error('down')
      },
    }
    const app = limitedApp(express, { windowMs: 60_000, max: 1, store, failOpen: false })
    const res = await request(app).get('/items/1')
    expect(res.status).toBe(503)
    expect(res.body.error).toEqual({
      code: 'RATE_LIMIT_UNAVAILABLE',
      message: 'Rate limit is unavailable, try again later',
      details: null,
    })
  })

  it('never hangs on a store that does not answer: its timeout answers instead', async () => {
    const store = { increment: () => new Promise<RateLimitEntry>(() => {}) }
    const logger = captureLogger()
    await withLogging(async () => {
      const rateLimit = { windowMs: 60_000, max: 1, store, storeTimeoutMs: 50 }
      const open = limitedApp(express, rateLimit, { logger })
      expect((await request(open).get('/items/1')).status).toBe(200)
    })
    const errors = logger.records.filter((r) => r.level === 'error')
    expect(errors.map((r) => r.meta.failure)).toEqual(['timed out'])
    const closed = limitedApp(express, {
      windowMs: 60_000,
      max: 1,
      store: { get: () => new Promise<null>(() => {}), set: () => {} },
      storeTimeoutMs: 50,
      failOpen: false,
    })
    expect((await request(closed).get('/items/1')).status).toBe(503)
    // The key is not stuck behind the call that never answered.
    expect((await request(closed).get('/items/1')).status).toBe(503)
  })
})

describe('rateLimit options', () => {
  it.each([
    [{ max: 5 }, /windowMs: must be an integer of at least 1/],
    [{ windowMs: 0, max: 5 }, /windowMs: must be an integer of at least 1/],
    [{ windowMs: 1000, max: -1 }, /max: must be an integer of at least 0/],
    [{ windowMs: 1000, max: 1.5 }, /max: must be an integer/],
    [{ windowMs: 1000, max: 5, limit: 3 }, /rateLimit: limit is not an option/],
    [{ windowMs: 1000, max: 5, store: {} }, /rateLimit.store: must have get\(key\) and set/],
    [{ windowMs: 1000, max: 5, failOpen: 'no' }, /rateLimit.failOpen: must be a boolean/],
    [{ windowMs: 1000, max: 5, keyGenerator: 'ip' }, /rateLimit.keyGenerator: must be a function/],
  ])('rejects %j when the route is defined', (rateLimit, message) => {
    expect(() => validate({ rateLimit: rateLimit as never })).toThrow(message)
  })

  it('is an option of a route, not of shapeguard()', () => {
    expect(() => shapeguard({ rateLimit: { windowMs: 1000, max: 1 } } as never)).toThrow(
      /shapeguard\(\): rateLimit is an option of a route/,
    )
    expect(() => shapeguard({ cache: { maxAge: 1 } } as never)).toThrow(TypeError)
  })
})
