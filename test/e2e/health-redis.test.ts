import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import Redis from 'ioredis'
import { createClient } from 'redis'
import { beforeAll, describe, expect, it } from 'vitest'
import { redisStore } from '../../src/adapters-redis.js'
import { configureLogger, health, shapeguard } from '../../src/index.js'
import { redisSkipReason, useRedisServer } from '../support/redis-server.js'

const file = useRedisServer()
const available = file.available

beforeAll(() => {
  configureLogger({ silent: true })
})

async function readyz(store: unknown): Promise<{ status: number; body: any }> {
  const app = express()
  app.use(shapeguard({ debug: false }))
  app.use(health({ checks: { redis: store as never }, timeoutMs: 500 }))
  const server: Server = app.listen(0, '127.0.0.1')
  await once(server, 'listening')
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`)
    return { status: res.status, body: await res.json() }
  } finally {
    server.closeAllConnections()
    server.close()
  }
}

describe.skipIf(!available)(
  `health() with redisStore ${available ? '' : `(${redisSkipReason})`}`,
  () => {
    it('passes while Redis answers and fails once it is stopped, through ioredis and node-redis', async () => {
      const io = new Redis({ host: '127.0.0.1', port: file.redis.port, maxRetriesPerRequest: 1 })
      io.on('error', () => {})
      file.closers.push(() => io.disconnect())
      const node = createClient({ socket: { host: '127.0.0.1', port: file.redis.port } })
      node.on('error', () => {})
      await node.connect()
      file.closers.push(() => node.destroy())
      const stores = [redisStore({ client: io }), redisStore({ client: node })]

      for (const store of stores) {
        expect(await store.ping()).toBe(true)
        const ready = await readyz(store)
        expect([ready.status, ready.body.data]).toEqual([
          200,
          { status: 'ok', checks: { redis: 'ok' } },
        ])
      }
      await file.redis.stop()
      for (const store of stores) {
        const ready = await readyz(store)
        expect(ready.status).toBe(503)
        expect(ready.body.error.code).toBe('NOT_READY')
        expect(['failed', 'timeout']).toContain(ready.body.error.details.checks.redis)
      }
    }, 20_000)
  },
)
