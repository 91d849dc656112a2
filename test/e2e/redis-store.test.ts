import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import express, { type Request, type Response } from 'express'
import Redis from 'ioredis'
import { RedisStore } from 'rate-limit-redis'
import { createClient } from 'redis'
import request from 'supertest'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { redisStore } from '../../src/adapters-redis.js'
import {
  configureLogger,
  errorHandler,
  handle,
  type RateLimitOptions,
  shapeguard,
} from '../../src/index.js'
import { resetStoreFailureReports } from '../../src/runtime/rate-limit/store-failures.js'
import { captureLogger, hosts, withLogging } from '../support/e2e.js'
import { redisSkipReason, useRedisServer } from '../support/redis-server.js'

const file = useRedisServer()
const available = file.available

beforeAll(() => {
  configureLogger({ silent: true })
})
afterEach(() => resetStoreFailureReports())

function ioredis(maxRetriesPerRequest = 1) {
  const client = new Redis({ host: '127.0.0.1', port: file.redis.port, maxRetriesPerRequest })
  client.on('error', () => {})
  file.closers.push(() => client.disconnect())
  return client
}

async function nodeRedis() {
  const client = createClient({ socket: { host: '127.0.0.1', port: file.redis.port } })
  client.on('error', () => {})
  await client.connect()
  file.closers.push(() => client.destroy())
  return client
}

const ok = (_req: Request, res: Response) => res.ok({ data: null })

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

const clients = [
  ['ioredis', async () => ioredis()],
  ['node-redis', nodeRedis],
] as const

describe.skipIf(!available)(`redisStore ${available ? '' : `(${redisSkipReason})`}`, () => {
  it.each(clients)(
    'limits exactly with a %s client, one route apart from another',
    async (name, make) => {
      const client = await make()
      const prefix = `t:${name}:`
      const store = redisStore({ client, prefix })
      const app = appWith({ windowMs: 60_000, max: 5, store })
      expect(passes(await burst(app, 30))).toBe(5)
      expect(passes(await burst(app, 10, '/other/1'))).toBe(5)
      const check = ioredis()
      const keys = (await check.keys(`${prefix}*`)).sort()
      expect(keys).toEqual([
        `${prefix}GET /items/:id|127.0.0.1`,
        `${prefix}GET /other/:id|127.0.0.1`,
      ])
      // A request over the limit leaves the count unchanged; the window has its expiry.
      expect(await check.get(keys[0]!)).toBe('5')
      const ttl = await check.pttl(keys[0]!)
      expect(ttl).toBeGreaterThan(50_000)
      expect(ttl).toBeLessThanOrEqual(60_000)
    },
  )

  it.each(
    hosts.flatMap(([host, host4or5]) =>
      clients.map(([name, make]) => [host, name, host4or5, make] as const),
    ),
  )(
    '%s, %s client: every spelling of a route shares one count',
    async (host, name, host4or5, make) => {
      const prefix = `t:spell:${host}:${name}:`
      const store = redisStore({ client: await make(), prefix })
      const app = host4or5()
      app.use(shapeguard())
      const users = host4or5.Router()
      users.get('/users/:id', ...handle({ rateLimit: { windowMs: 60_000, max: 3, store } }, ok))
      app.use('/v1', users)
      app.use(errorHandler())
      const statuses: number[] = []
      for (const path of [
        '/v1/users/1',
        '/V1/users/2',
        '/v1/USERS/%31/',
        '/v1/users/1%00',
        '/V1/Users/9',
      ])
        statuses.push((await request(app).get(path)).status)
      expect(statuses).toEqual([200, 200, 200, 429, 429])
      expect(await ioredis().keys(`${prefix}*`)).toEqual([`${prefix}GET /v1/users/:id|127.0.0.1`])
    },
  )

  it.each(clients)(
    'counts increment(key, windowMs) without max, as callers before max call it (%s)',
    async (name, make) => {
      const prefix = `t:nomax:${name}:`
      const store = redisStore({ client: await make(), prefix })
      const started = Date.now()
      const counts: number[] = []
      for (let i = 0; i < 4; i++) counts.push((await store.increment('k', 60_000)).count)
      // Without max the count always grows.
      expect(counts).toEqual([1, 2, 3, 4])
      // With it, a full window is left unchanged and answered one past its count.
      expect((await store.increment('k', 60_000, 4)).count).toBe(5)
      const full = await store.increment('k', 60_000, 4)
      expect(full.count).toBe(5)
      expect(full.reset).toBeGreaterThan(started + 50_000)
      expect(full.reset).toBeLessThanOrEqual(Date.now() + 60_000)
      const check = ioredis()
      expect(await check.get(`${prefix}k`)).toBe('4')
      expect((await store.increment('k', 60_000)).count).toBe(5)
      expect(await check.get(`${prefix}k`)).toBe('5')
      expect(await check.pttl(`${prefix}k`)).toBeGreaterThan(50_000)
    },
  )

  it('refuses a windowMs or max that is not a whole number, naming it', async () => {
    const store = redisStore({ client: ioredis(), prefix: 't:args:' })
    await expect(store.increment('k', 0)).rejects.toThrow(/windowMs, an integer of at least 1/)
    await expect(store.increment('k', 1.5)).rejects.toThrow(TypeError)
    await expect(store.increment('k', 1000, -1)).rejects.toThrow(/max, an integer of at least 0/)
    await expect(store.increment('k', 1000, 2.5)).rejects.toThrow(TypeError)
    expect(await ioredis().keys('t:args:*')).toEqual([])
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
      const ports = await Promise.all([0, 1].map(() => spawnApp(file.redis.port, max, children)))
      // Every spelling of the route, in both processes, is one count.
      const spellings = ['/items/1', '/ITEMS/2', '/items/%33/', '/Items/4']
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          request(`http://127.0.0.1:${ports[i % 2]}`).get(spellings[i % spellings.length]!),
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
    await file.redis.restart()
    await waitUntil(async () => (await client.ping().catch(() => '')) === 'PONG')
    expect(passes(await burst(app, 4))).toBe(2)
  }, 30_000)

  it(
    'lets requests through a dead Redis (failOpen), logging once; 503 with failOpen: false',
    () =>
      withLogging(async () => {
        // ioredis's default: a command waits through 20 reconnections (seconds) before it fails,
        // so what answers a request is the store timeout.
        const client = ioredis(20)
        await client.ping()
        const logger = captureLogger()
        const store = redisStore({ client, prefix: 't:dead:' })
        const open = appWith({ windowMs: 60_000, max: 1, store, storeTimeoutMs: 300 }, logger)
        await file.redis.stop()
        try {
          const statuses = await burst(open, 5)
          expect(statuses).toEqual([200, 200, 200, 200, 200])
          const errors = logger.records.filter((r) =>
            r.message?.startsWith('shapeguard rateLimit: the store failed'),
          )
          expect(errors).toHaveLength(1)
          expect(errors[0]?.meta).toMatchObject({ failure: 'timed out', requestsLetThrough: 1 })
          // (its shapeguard() would replace the captured logger: built after the checks above)
          const closed = appWith(
            { windowMs: 60_000, max: 1, store, storeTimeoutMs: 300, failOpen: false },
            captureLogger(),
          )
          const res = await request(closed).get('/items/1')
          expect(res.status).toBe(503)
          expect(res.body.error.code).toBe('RATE_LIMIT_UNAVAILABLE')
        } finally {
          await file.redis.restart()
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
