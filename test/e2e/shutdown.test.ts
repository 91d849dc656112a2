import { createServer, type Server } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  closeGracefully,
  errorHandler,
  handle,
  type ShapeguardConfig,
  serve,
  shapeguard,
} from '../../src/index.js'
import { SseParser } from '../../src/shared/event-stream.js'
import { captureLogger, type Express, hosts } from '../support/e2e.js'
import { get, keepAlive, type Outcome, portOf, rawConnection, until } from './shutdown-client.js'

const Wait = z.object({
  ms: z.coerce.number().int().min(0),
  gated: z.coerce.number().optional(),
})
const Tick = z.object({ n: z.number() })

/** Rejects with the signal's reason once it aborts. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason)
    signal.addEventListener('abort', () => reject(signal.reason), { once: true })
  })
}

interface Probe {
  arrived: number
  answered: number
  /** Settles when the test opens it: the gated routes start their wait then. */
  gate: Promise<void>
  open(): void
  /** `performance.now()` of each abort a handler saw, and its reason's code. */
  aborts: { at: number; code: unknown }[]
}

/**
 * The test app: /wait?ms= answers after ms (ignoring its signal), /honour?ms= stops when its
 * signal aborts, /ticks streams SSE events until it is ended.
 */
function app(express: Express, config: ShapeguardConfig = {}) {
  let open = () => {}
  const gate = new Promise<void>((resolve) => {
    open = resolve
  })
  const probe: Probe = { arrived: 0, answered: 0, gate, open, aborts: [] }
  const logger = captureLogger()
  const a = express()
  a.use(shapeguard({ logger: { instance: logger }, ...config }))
  a.get(
    '/wait',
    ...handle({ query: Wait }, async (req, res) => {
      probe.arrived++
      if (req.query.gated === 1) await probe.gate
      const signal = req.signal as AbortSignal
      signal.addEventListener('abort', () =>
        probe.aborts.push({
          at: performance.now(),
          code: (signal.reason as { code?: unknown }).code,
        }),
      )
      await sleep(req.query.ms)
      res.ok({ data: { waited: req.query.ms } })
      probe.answered++
    }),
  )
  a.get(
    '/honour',
    ...handle({ query: Wait }, async (req, res) => {
      probe.arrived++
      if (req.query.gated === 1) await probe.gate
      await Promise.race([sleep(req.query.ms), aborted(req.signal as AbortSignal)])
      res.ok({ data: { waited: req.query.ms } })
    }),
  )
  a.get(
    '/ticks',
    ...handle({ events: { tick: Tick } }, async (_req, res) => {
      probe.arrived++
      const stream = res.sse()
      await stream.send('tick', { n: 1 })
    }),
  )
  a.use(errorHandler())
  return { app: a, probe, logger }
}

async function listen(handler: ReturnType<Express>): Promise<Server> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}

const statusOf = (o: Outcome) => ('status' in o ? o.status : o.error)
const bodyOf = (o: Outcome) => ('status' in o ? JSON.parse(o.text) : undefined)

describe.each(hosts)('closeGracefully on %s', (_, express) => {
  it('resolves within a second with no request in flight, idle keep-alive clients and a silent connection open', async () => {
    const { app: a } = app(express)
    const server = await listen(a)
    const port = portOf(server)
    const agent = keepAlive()
    await Promise.all([1, 2, 3].map(() => get(port, '/wait?ms=0', agent)))
    const silent = await rawConnection(port)
    const start = performance.now()
    await closeGracefully(server, { shutdownMs: 5000 })
    const took = performance.now() - start
    await silent.ended
    agent.destroy()
    expect(took).toBeLessThan(1000)
    expect(server.listening).toBe(false)
  })

  it('100 requests in flight of 0–1600 ms (shutdownMs 2000): 100 kept with 200, 0 lost', async () => {
    const { app: a, probe, logger } = app(express)
    const server = await listen(a)
    const port = portOf(server)
    const agent = keepAlive()
    const shutdownMs = 2000
    const asked = Array.from({ length: 100 }, (_, i) => Math.round((i / 99) * shutdownMs * 0.8))
    // Every request is in flight when the drain starts, and waits its time from then on.
    const answers = asked.map((ms) => get(port, `/wait?gated=1&ms=${ms}`, agent))
    await until(() => probe.arrived === 100)
    const start = performance.now()
    const closing = closeGracefully(server, { shutdownMs })
    probe.open()
    await closing
    const took = performance.now() - start
    const outcomes = await Promise.all(answers)
    agent.destroy()
    const kept = outcomes.filter((o) => statusOf(o) === 200).length
    expect({ kept, lost: 100 - kept }).toEqual({ kept: 100, lost: 0 })
    expect(outcomes.map((o) => bodyOf(o)?.data?.waited)).toEqual(asked)
    expect(took).toBeLessThan(shutdownMs)
    expect(probe.aborts.filter((a) => a.code === 'SHUTTING_DOWN')).toEqual([])
    const closed = logger.records.find((r) => r.message === 'shapeguard: server closed gracefully')
    expect(closed?.meta).toMatchObject({ inFlight: 100, cutOff: 0, shutdownMs })
  })

  it('requests longer than shutdownMs: 4 kept, 6 cut off at the deadline with 503 SHUTTING_DOWN, never inside it', async () => {
    const { app: a, probe, logger } = app(express)
    const server = await listen(a)
    const port = portOf(server)
    const shutdownMs = 600
    const paths = [
      ...[0, 100, 200, 400].map((ms) => `/wait?gated=1&ms=${ms}`),
      // Longer than shutdownMs: three honour their signal, three ignore it.
      ...[1, 2, 3].map(() => '/honour?gated=1&ms=30000'),
      ...[1, 2, 3].map(() => '/wait?gated=1&ms=30000'),
    ]
    const answers = paths.map((path) => get(port, path))
    await until(() => probe.arrived === paths.length)
    const start = performance.now()
    const closing = closeGracefully(server, { shutdownMs })
    probe.open()
    await closing
    const took = performance.now() - start
    const outcomes = await Promise.all(answers)
    const kept = outcomes.filter((o) => statusOf(o) === 200).length
    const cut = outcomes.filter((o) => statusOf(o) === 503)
    expect({ kept, cutOff: cut.length }).toEqual({ kept: 4, cutOff: 6 })
    for (const o of cut) {
      expect(bodyOf(o).error.code).toBe('SHUTTING_DOWN')
      expect('headers' in o && o.headers['retry-after']).toBe('1')
    }
    // The ignoring handlers' signals aborted at the deadline, not before; no other was aborted.
    const shutdownAborts = probe.aborts.filter((a) => a.code === 'SHUTTING_DOWN')
    expect(shutdownAborts).toHaveLength(3)
    for (const { at } of shutdownAborts) expect(at - start).toBeGreaterThanOrEqual(shutdownMs - 5)
    expect(took).toBeLessThan(shutdownMs + 2000)
    const closed = logger.records.find((r) => r.meta.cutOff !== undefined)
    expect(closed).toMatchObject({ level: 'warn', meta: { inFlight: 10, cutOff: 6 } })
  })

  it.each([
    ['envelope', {}],
    ['problem+json', { errors: { format: 'problem+json' } }],
  ] as const)(
    'a new request on a kept-alive connection gets 503 SHUTTING_DOWN and Connection: close (%s)',
    async (format, config) => {
      const { app: a, probe } = app(express, config as ShapeguardConfig)
      const server = await listen(a)
      const port = portOf(server)
      const busy = get(port, '/wait?ms=400')
      const conn = await rawConnection(port)
      conn.socket.write('GET /wait?ms=0 HTTP/1.1\r\nHost: x\r\n\r\n')
      await until(() => conn.read().includes('"waited":0'))
      // The next request has begun (its first line) when the drain starts, and ends after.
      conn.socket.write('GET /wait?ms=0 HTTP/1.1\r\n')
      await until(() => probe.arrived === 2)
      // Until the line has reached the server: an idle connection is closed when the drain starts.
      await sleep(50)
      const closing = closeGracefully(server, { shutdownMs: 5000 })
      await sleep(50)
      conn.socket.write('Host: x\r\n\r\n')
      await conn.ended
      await closing
      expect(statusOf(await busy)).toBe(200)
      const second = conn.read().slice(conn.read().indexOf('HTTP/1.1', 10))
      const [head, body] = second.split('\r\n\r\n')
      expect(head).toMatch(/^HTTP\/1\.1 503 /)
      expect(head).toMatch(/\r\nConnection: close\r\n/i)
      expect(head).toMatch(/\r\nRetry-After: 1\r\n/i)
      const parsed = JSON.parse(body ?? '')
      if (format === 'envelope') {
        expect(head).toMatch(/Content-Type: application\/json/i)
        expect(parsed).toMatchObject({ success: false, error: { code: 'SHUTTING_DOWN' } })
      } else {
        expect(head).toMatch(/Content-Type: application\/problem\+json/i)
        expect(parsed).toMatchObject({ status: 503, code: 'SHUTTING_DOWN' })
      }
    },
  )

  it('refuses new TCP connections from the moment it starts', async () => {
    const { app: a, probe } = app(express)
    const server = await listen(a)
    const port = portOf(server)
    const busy = get(port, '/wait?ms=300')
    await until(() => probe.arrived === 1)
    const closing = closeGracefully(server, { shutdownMs: 5000 })
    expect(await get(port, '/wait?ms=0')).toEqual({ error: 'ECONNREFUSED' })
    expect(statusOf(await busy)).toBe(200)
    await closing
  })

  it('ends an open SSE stream at the deadline with a SHUTTING_DOWN error event; the client sees the end', async () => {
    const { app: a, probe } = app(express)
    const server = await listen(a)
    const port = portOf(server)
    const stream = get(port, '/ticks')
    await until(() => probe.arrived === 1)
    await closeGracefully(server, { shutdownMs: 300 })
    const outcome = await stream
    expect(statusOf(outcome)).toBe(200)
    const events = new SseParser().push('text' in outcome ? outcome.text : '')
    expect(events.map((e) => e.event)).toEqual(['tick', 'error'])
    expect(JSON.parse(events[1]?.data ?? '')).toMatchObject({ error: { code: 'SHUTTING_DOWN' } })
  })

  it('returns the same promise when called twice', async () => {
    const { app: a } = app(express)
    const server = await listen(a)
    const first = closeGracefully(server)
    expect(closeGracefully(server)).toBe(first)
    await first
  })
})

describe.each(hosts)('serve() on %s', (_, express) => {
  it('answers the listening server, whose shutdown() drains and resolves, and removes its signal listeners', async () => {
    const before = process.listenerCount('SIGTERM')
    const { app: a, probe } = app(express)
    const one = await serve(a, { port: 0, host: '127.0.0.1', shutdownMs: 2000 })
    const two = await serve(a, { port: 0, host: '127.0.0.1' })
    // One listener per signal, however many servers.
    expect(process.listenerCount('SIGTERM')).toBe(before + 1)
    const busy = get(portOf(one), '/wait?ms=200')
    await until(() => probe.arrived === 1)
    await one.shutdown()
    expect(statusOf(await busy)).toBe(200)
    expect(one.listening).toBe(false)
    expect(process.listenerCount('SIGTERM')).toBe(before + 1)
    await two.shutdown()
    expect(process.listenerCount('SIGTERM')).toBe(before)
    expect(process.listenerCount('SIGINT')).toBe(before)
  })

  it('runs onShutdown once the server has drained', async () => {
    const { app: a, probe } = app(express)
    const answeredBefore: number[] = []
    const server = await serve(a, {
      port: 0,
      host: '127.0.0.1',
      signals: [],
      onShutdown: () => {
        answeredBefore.push(probe.answered)
      },
    })
    const busy = get(portOf(server), '/wait?ms=100')
    await until(() => probe.arrived === 1)
    await server.shutdown()
    expect(statusOf(await busy)).toBe(200)
    expect(answeredBefore).toEqual([1])
  })

  it('rejects when the port is taken', async () => {
    const { app: a } = app(express)
    const first = await serve(a, { port: 0, host: '127.0.0.1', signals: [] })
    await expect(serve(a, { port: portOf(first), host: '127.0.0.1' })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    })
    await first.shutdown()
  })
})

describe('serve() options', () => {
  it('names the option it refuses', async () => {
    const listener = () => {}
    await expect(serve(listener, { port: -1 })).rejects.toThrow(/serve\(\): port must be/)
    await expect(serve(listener, { signals: ['SIGNOPE' as never] })).rejects.toThrow(/signals/)
    await expect(serve(listener, { shutdownMs: 1.5 })).rejects.toThrow(/shutdownMs/)
    await expect(serve(listener, { nope: 1 } as never)).rejects.toThrow(/nope/)
  })
})
