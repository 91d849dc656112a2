import type { Request, Response } from 'express'
import Redis from 'ioredis'
import request from 'supertest'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { redisStore } from '../../src/adapters-redis.js'
import {
  configureLogger,
  errorHandler,
  handle,
  type RateLimitEntry,
  type RateLimitOptions,
  shapeguard,
  validate,
} from '../../src/index.js'
import { resetKeyOwnerWarning } from '../../src/runtime/rate-limit/key-owners.js'
import { captureLogger, type Express, hosts, withLogging } from '../support/e2e.js'
import {
  type RedisServer,
  redisAvailable,
  redisSkipReason,
  startRedis,
} from '../support/redis-server.js'

// When two limits share a count: two apps in one process, two routers dispatched by hand, two
// limits on one route. Keys must stay the same in every process of one app (a shared Redis).

beforeAll(() => {
  configureLogger({ silent: true })
})
afterEach(() => {
  resetKeyOwnerWarning()
})

type App = ReturnType<Express>

function keptStore() {
  const map = new Map<string, RateLimitEntry>()
  return {
    map,
    get: (key: string) => map.get(key) ?? null,
    set: (key: string, entry: RateLimitEntry) => {
      map.set(key, { ...entry })
    },
  }
}

const limit = (extra: Partial<RateLimitOptions> = {}): RateLimitOptions => ({
  windowMs: 60_000,
  max: 2,
  ...extra,
})

const ok = (_req: Request, res: Response) => res.status(200).json({ ok: true })

function appOf(express: Express, build: (app: App) => void, logger = captureLogger()): App {
  const app = express()
  app.use(shapeguard({ logger: { instance: logger } }))
  build(app)
  app.use(errorHandler())
  return app
}

/** Two apps, each with its own `POST /login` limited through `store`. */
function loginApps(
  express: Express,
  store: NonNullable<RateLimitOptions['store']>,
  logger = captureLogger(),
) {
  const login = (a: App) => a.post('/login', ...handle({ rateLimit: limit({ store }) }, ok))
  return [appOf(express, login, logger), appOf(express, login, logger)] as const
}

async function posts(app: App, n: number, path = '/login'): Promise<number[]> {
  const out: number[] = []
  for (let i = 0; i < n; i++) out.push((await request(app).post(path)).status)
  return out
}

const ownerWarnings = (logger: ReturnType<typeof captureLogger>) =>
  logger.records.filter((r) => r.message?.includes('count in one store under the same key'))

describe.each(hosts)('%s: limits that could share a count', (_name, express) => {
  it('keeps apart two apps that one limit serves, with the memory store', async () => {
    const login = handle({ rateLimit: limit() }, ok)
    const first = appOf(express, (a) => a.post('/login', ...login))
    const second = appOf(express, (a) => a.post('/login', ...login))
    expect(await posts(first, 3)).toEqual([200, 200, 429])
    expect(await posts(second, 3)).toEqual([200, 200, 429])
  })

  it('keeps apart two limits on one route sharing a store: each counts a request once', async () => {
    const store = keptStore()
    const app = appOf(express, (a) =>
      a.post(
        '/login',
        validate({ rateLimit: limit({ store }) }),
        validate({ rateLimit: limit({ store, max: 3 }) }),
        ok,
      ),
    )
    expect(await posts(app, 3)).toEqual([200, 200, 429])
    expect([...store.map.keys()].sort()).toEqual([
      'POST /login#2|127.0.0.1',
      'POST /login|127.0.0.1',
    ])
    expect([...store.map.values()].map((e) => e.count)).toEqual([2, 2])
  })

  it('warns once, naming the route, when two apps count in one store under one key', () =>
    withLogging(async () => {
      const logger = captureLogger()
      const store = keptStore()
      const [first, second] = loginApps(express, store, logger)
      // They share the count (a name from the order requests arrive in would differ between
      // processes): the warning says so, and how to keep them apart.
      expect(await posts(first, 2)).toEqual([200, 200])
      expect(await posts(second, 2)).toEqual([429, 429])
      // Written inside the request that found the clash, so it carries that request's ID.
      expect(ownerWarnings(logger).map((w) => w.meta)).toEqual([
        { requestId: expect.stringMatching(/^req_/), place: 'POST /login' },
      ])
      expect(JSON.stringify(logger.records)).not.toContain('127.0.0.1')
    }))

  it('warns when two routers dispatched by hand count in one store under one key', () =>
    withLogging(async () => {
      const logger = captureLogger()
      const store = keptStore()
      const v1 = express.Router()
      const v2 = express.Router()
      v1.post('/login', ...handle({ rateLimit: limit({ store }) }, ok))
      v2.post('/login', ...handle({ rateLimit: limit({ store }) }, ok))
      const app = appOf(
        express,
        (a) => a.use((req, res, next) => (req.headers['x-v'] === '2' ? v2 : v1)(req, res, next)),
        logger,
      )
      expect((await request(app).post('/login')).status).toBe(200)
      expect((await request(app).post('/login').set('X-V', '2')).status).toBe(200)
      expect(ownerWarnings(logger)).toHaveLength(1)
    }))

  it('does not warn for one router mounted at two paths of one app (one route)', () =>
    withLogging(async () => {
      const logger = captureLogger()
      const store = keptStore()
      const auth = express.Router()
      auth.post('/login', ...handle({ rateLimit: limit({ store }) }, ok))
      const app = appOf(express, (a) => a.use(['/v1', '/v2'], auth), logger)
      expect(await posts(app, 3, '/v1/login')).toEqual([200, 200, 429])
      expect(await posts(app, 1, '/v2/login')).toEqual([429])
      expect(ownerWarnings(logger)).toEqual([])
    }))
})

const withRedis = redisAvailable()

describe.skipIf(!withRedis)(`two apps on one Redis ${withRedis ? '' : redisSkipReason}`, () => {
  let redis: RedisServer | undefined
  let client: Redis | undefined
  beforeAll(async () => {
    redis = await startRedis()
    client = new Redis({ host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: 1 })
    client.on('error', () => {})
  }, 20_000)
  afterAll(async () => {
    client?.disconnect()
    await redis?.stop()
  })

  it.each(hosts)('%s: count apart with a store prefix each', async (host, express) => {
    const billing = redisStore({ client: client!, prefix: `${host}:billing:` })
    const shop = redisStore({ client: client!, prefix: `${host}:shop:` })
    const first = appOf(express, (a) =>
      a.post('/login', ...handle({ rateLimit: limit({ store: billing }) }, ok)),
    )
    const second = appOf(express, (a) =>
      a.post('/login', ...handle({ rateLimit: limit({ store: shop }) }, ok)),
    )
    expect(await posts(first, 3)).toEqual([200, 200, 429])
    expect(await posts(second, 3)).toEqual([200, 200, 429])
    expect((await client!.keys(`${host}:*`)).sort()).toEqual([
      `${host}:billing:POST /login|127.0.0.1`,
      `${host}:shop:POST /login|127.0.0.1`,
    ])
  })

  it.each(hosts)('%s: share one count through one store, with a warning', (host, express) =>
    withLogging(async () => {
      const logger = captureLogger()
      const store = redisStore({ client: client!, prefix: `${host}:one:` })
      const [first, second] = loginApps(express, store, logger)
      expect(await posts(first, 1)).toEqual([200])
      expect(await posts(second, 2)).toEqual([200, 429])
      expect(await client!.keys(`${host}:one:*`)).toEqual([`${host}:one:POST /login|127.0.0.1`])
      expect(ownerWarnings(logger)).toHaveLength(1)
    }),
  )
})
