import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import express from 'express'
import Redis from 'ioredis'
import { RedisStore } from 'rate-limit-redis'
import { createClient } from 'redis'
import request from 'supertest'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { redisStore } from '../../src/adapters/redis/index.js'
import {
  configureLogger,
  errorHandler,
  handle,
  type RateLimitOptions,
  shapeguard,
} from '../../src/index.js'
import { resetStoreFailureReports } from '../../src/runtime/rate-limit/store-failures.js'
import {
  type RedisServer,
  redisAvailable,
  redisSkipReason,
  startRedis,
} from '../support/redis-server.js'
import { captureLogger, withLogging } from './support.js'

const available = redisAvailable()
let redis: RedisServer
// Closed without waiting on the server: a test may leave it stopped or restarted.
const closers: Array<() => unknown> = []

beforeAll(async () => {
  configureLogger({ silent: true })
  if (available) redis = await startRedis()
}, 20_000)
afterAll(async () => {
  for (const close of closers) {
    try {
      await close()
    } catch {
      // already closed
    }
  }
  await redis?.stop()
})
afterEach(() => resetStoreFailureReports())

function ioredis() {
  const client = new Redis({ host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: 1 })
  client.on('error', () => {})
  closers.push(() => client.disconnect())
  return client
}

async function nodeRedis() {
  const client = createClient({ socket: { host: '127.0.0.1', port: redis.port } })
  client.on('error', () => {})
  await client.connect()
  closers.push(() => client.destroy())
  return client
}

function appWith(rateLimit: RateLimitOptions, logger?: ReturnType<typeof captureLogger>) {
  const app = express()
  app.use(shapeguard(logger ? { logger: { instance: logger } } : {}))
  app.get('/items/:id', ...handle({ rateLimit }, (_req, res) => res.ok({ data: null })))
  app.get('/other/:id', ...handle({ rateLimit }, (_req, res) => res.ok({ data: null })))
  app.use(errorHandler())
  return app
}

async function burst(app: ReturnType<typeof express>, n: number, path = '/items/1') {
  const server = app.listen(0, '127.0.0.1')
  try {
    const answers = await Promise.all(Array.from({ length: n }, () => request(server).get(path)))
    return answers.map((r) => r.status)
  } finally {
    server.close()
  }
}

const passes = (statuses: number[]) => statuses.filter((s) => s === 200).length

describe.skipIf(!available)(`redisStore ${available ? '' : `(${redisSkipReason})`}`, () => {
  it.each([
    ['ioredis', async () => ioredis()],
    ['node-redis', nodeRedis],
  ])('limits exactly with a %s client, one route apart from another', async (name, make) => {
    const client = await make()
    const prefix = `t:${name}:`
    const store = redisStore({ client, prefix })
    const app = appWith({ windowMs: 60_000, max: 5, store })
    expect(passes(await burst(app, 30))).toBe(5)
    expect(passes(await burst(app, 10, '/other/1'))).toBe(5)
    const check = ioredis()
    const keys = (await check.keys(`${prefix}*`)).sort()
    expect(keys).toEqual([
      `${prefix}GET /items/:id|/items/1:127.0.0.1`,
      `${prefix}GET /other/:id|/other/1:127.0.0.1`,
    ])
    // A request over the limit leaves the count unchanged; the window has its expiry.
    expect(await check.get(keys[0]!)).toBe('5')
    const ttl = await check.pttl(keys[0]!)
    expect(ttl).toBeGreaterThan(50_000)
    expect(ttl).toBeLessThanOrEqual(60_000)
  })

  it('takes rate-limit-redis, the express-rate-limit Redis store', async () => {
    const client = ioredis()
    const store = new RedisStore({
      sendCommand: (command: string, ...args: string[]) =>
        client.call(command, ...args) as Promise<never>,
      prefix: 't:rlr:',
    })
    const app = express()
    app.use(shapeguard())
    app.get(
      '/items/:id',
      ...handle({ rateLimit: { windowMs: 60_000, max: 4, store } }, (_req, res) =>
        res.ok({ data: null }),
      ),
    )
    app.use(errorHandler())
    expect(passes(await burst(app, 12))).toBe(4)
  })

  it('sends its headers from the window Redis keeps', async () => {
    const store = redisStore({ client: ioredis(), prefix: 't:headers:' })
    const res = await request(appWith({ windowMs: 30_000, max: 3, store })).get('/items/1')
    expect(res.headers['ratelimit-limit']).toBe('3')
    expect(res.headers['ratelimit-remaining']).toBe('2')
    expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(29)
  })

  it('sends the script again when Redis has forgotten it (NOSCRIPT)', async () => {
    const client = ioredis()
    const app = appWith({
      windowMs: 60_000,
      max: 2,
      store: redisStore({ client, prefix: 't:ns:' }),
    })
    expect((await request(app).get('/items/1')).status).toBe(200)
    await client.script('FLUSH')
    expect((await request(app).get('/items/1')).status).toBe(200)
    expect((await request(app).get('/items/1')).status).toBe(429)
  })

  it('holds one limit across two processes sharing one Redis', async () => {
    const max = 7
    const children: ChildProcess[] = []
    try {
      const ports = await Promise.all([0, 1].map(() => spawnApp(redis.port, max, children)))
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          request(`http://127.0.0.1:${ports[i % 2]}`).get('/items/1'),
        ),
      )
      const statuses = answers.map((r) => r.status)
      expect(passes(statuses)).toBe(max)
      expect(statuses.filter((s) => s === 429)).toHaveLength(100 - max)
    } finally {
      for (const child of children) child.kill('SIGTERM')
    }
  }, 30_000)

  it('keeps limiting after Redis restarts (a new, empty server: a new window)', async () => {
    const client = ioredis()
    const app = appWith({
      windowMs: 60_000,
      max: 2,
      store: redisStore({ client, prefix: 't:rs:' }),
    })
    expect(passes(await burst(app, 4))).toBe(2)
    await redis.restart()
    await waitUntil(async () => (await client.ping().catch(() => '')) === 'PONG')
    expect(passes(await burst(app, 4))).toBe(2)
  }, 30_000)

  it(
    'lets requests through a dead Redis (failOpen), logging once; 503 with failOpen: false',
    () =>
      withLogging(async () => {
        const client = ioredis()
        await client.ping()
        const logger = captureLogger()
        const store = redisStore({ client, prefix: 't:dead:' })
        const open = appWith({ windowMs: 60_000, max: 1, store, storeTimeoutMs: 300 }, logger)
        await redis.stop()
        try {
          const started = Date.now()
          const statuses = await burst(open, 5)
          expect(statuses).toEqual([200, 200, 200, 200, 200])
          expect(Date.now() - started).toBeLessThan(5_000)
          const errors = logger.records.filter((r) =>
            r.message?.startsWith('shapeguard rateLimit: the store failed'),
          )
          expect(errors).toHaveLength(1)
          expect(errors[0]?.meta.requestsLetThrough).toBe(1)
          // (its shapeguard() would replace the captured logger: built after the checks above)
          const closed = appWith(
            { windowMs: 60_000, max: 1, store, storeTimeoutMs: 300, failOpen: false },
            captureLogger(),
          )
          const res = await request(closed).get('/items/1')
          expect(res.status).toBe(503)
          expect(res.body.error.code).toBe('RATE_LIMIT_UNAVAILABLE')
        } finally {
          await redis.restart()
        }
      }),
    30_000,
  )
})

async function waitUntil(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('gave up waiting')
}

function spawnApp(redisPort: number, max: number, children: ChildProcess[]): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'fixtures/redis-limited-app.ts'),
      String(redisPort),
      String(max),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  children.push(child)
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    const timer = setTimeout(
      () => reject(new Error(`app did not start: ${err.slice(-500)}`)),
      20_000,
    )
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString()
    })
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString()
      const m = /listening (\d+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(Number(m[1]))
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`app exited (${code}): ${err.slice(-500)}`))
    })
  })
}
