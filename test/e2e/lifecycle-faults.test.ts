import { Agent, createServer, type Server } from 'node:http'
import { createServer as createHttp2Server } from 'node:http2'
import { setTimeout as sleep } from 'node:timers/promises'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import {
  closeGracefully,
  errorHandler,
  handle,
  health,
  serve,
  shapeguard,
} from '../../src/index.js'
import { captureLogger, hosts } from '../support/e2e.js'
import { get, portOf } from './shutdown-client.js'

// The faults a review found in the lifecycle: a handler that answers from its abort listener, a
// late answer on a request shapeguard never saw, a readiness check that never settles, readiness
// failing before the server stops accepting, an HTTP/2 server.

async function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}

describe.each(hosts)('%s', (_, express) => {
  it('keeps the 503 when the handler answers from its abort listener', async () => {
    const log = captureLogger()
    const app = express()
    app.use(shapeguard({ logger: { instance: log } }))
    app.get(
      '/quick-to-answer',
      ...handle({ timeout: 30 }, (req, res) => {
        req.signal.addEventListener('abort', () => res.status(504).json({ mine: true }))
      }),
    )
    app.use(errorHandler())
    const res = await request(app).get('/quick-to-answer')
    expect(res.status).toBe(503)
    expect(res.body.error.code).toBe('HANDLER_TIMEOUT')
    expect(res.headers['retry-after']).toBe('5')
    expect(log.records.filter((r) => r.message?.includes('late answer was dropped'))).toHaveLength(
      1,
    )
  })

  it('drops the late answer of a request shapeguard never saw, cut off by a drain', async () => {
    const app = express()
    let answered: unknown = 'not yet'
    app.get('/plain', async (_req, res) => {
      await sleep(900)
      try {
        res.json({ late: true })
        answered = 'dropped'
      } catch (err) {
        answered = err
      }
    })
    const server = await listen(app)
    const pending = get(portOf(server), '/plain')
    await sleep(50)
    await closeGracefully(server, { shutdownMs: 100, logger: captureLogger() })
    const outcome = await pending
    expect('status' in outcome && outcome.status).toBe(503)
    await sleep(1000)
    expect(answered).toBe('dropped')
  })

  it('calls a readiness check that never settles once, not once per probe', async () => {
    let calls = 0
    const app = express()
    app.use(
      health({
        checks: { db: { check: () => new Promise(() => calls++), timeoutMs: 20 } },
      }),
    )
    for (let i = 0; i < 5; i++) {
      const res = await request(app).get('/readyz')
      expect(res.status).toBe(503)
      expect(res.body.error.details.checks).toEqual({ db: 'timeout' })
    }
    expect(calls).toBe(1)
  })
})

describe('serve({ drainDelayMs })', () => {
  it('answers /readyz 503 while it still serves, then drains', async () => {
    const express = hosts[1][1]
    const app = express()
    app.use(health())
    app.get('/work', (_req, res) => res.json({ ok: true }))
    const server = await serve(app, { port: 0, host: '127.0.0.1', signals: [], drainDelayMs: 300 })
    const port = portOf(server)
    const done = server.shutdown()
    await sleep(50)
    const ready = await get(port, '/readyz')
    const work = await get(port, '/work')
    expect('status' in ready && ready.status).toBe(503)
    expect('status' in work && work.status).toBe(200)
    await done
    // A new connection: the global agent may hold one the drain closed.
    const after = await get(port, '/work', new Agent({ keepAlive: false }), 1_000)
    expect('error' in after && after.error).toBe('ECONNREFUSED')
  })
})

describe('closeGracefully on an HTTP/2 server', () => {
  it('resolves: the server has no closeIdleConnections or closeAllConnections', async () => {
    const server = createHttp2Server()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    await expect(
      closeGracefully(server as unknown as Server, { shutdownMs: 100, logger: captureLogger() }),
    ).resolves.toBeUndefined()
  })
})
