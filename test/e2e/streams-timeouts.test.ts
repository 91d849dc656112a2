import { createHook } from 'node:async_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { handle, isStreamClosed } from '../../src/index.js'
import { NdjsonParser, SseParser } from '../../src/shared/event-stream.js'
import { type captureLogger, hosts } from '../support/e2e.js'
import { waitFor } from '../support/streams.js'
import { readStream, until, useStreamApps } from './streams-client.js'

// A stream's time limits: `timeout.idle` (the longest wait between two events; heartbeats do not
// count) and `timeout.total` (its whole life from its head), the route's over shapeguard()'s.
// When one passes, the stream ends with a HANDLER_TIMEOUT error event (or line), `req.signal`
// aborts with a TimeoutError, later sends reject with StreamClosedError, and the request line
// records it once.

const Tick = z.object({ n: z.number() })
const serve = useStreamApps()

const lines = (text: string) => {
  const parser = new NdjsonParser()
  return [...parser.push(text), ...parser.end()].map((line) => JSON.parse(line))
}
const timedOutLines = (logger: ReturnType<typeof captureLogger>) =>
  logger.records.filter((r) => r.meta.code === 'HANDLER_TIMEOUT')

/**
 * Counts the timers the stream runtime makes from now on and has not cleared (or that have not
 * fired), ref'd or not: Node's own (an HTTP date cache, sockets') are left out by where they
 * were made.
 */
function trackStreamTimers(): { live(): number; stop(): void } {
  const live = new Set<number>()
  const hook = createHook({
    init(id, type) {
      if (type === 'Timeout' && /src[\\/]runtime[\\/]stream[\\/]/.test(new Error().stack ?? ''))
        live.add(id)
    },
    destroy(id) {
      live.delete(id)
    },
  }).enable()
  return { live: () => live.size, stop: () => hook.disable() }
}

/** What the handler saw once its signal aborted. */
interface Seen {
  reason?: string | undefined
  laterSend?: unknown
}

// Resolves when the request's signal aborts (bounded: a test never hangs on it).
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const bound = setTimeout(resolve, 3000)
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(bound)
        resolve()
      },
      { once: true },
    )
  })

describe.each(hosts)('stream time limits on %s', (_, express) => {
  it('idle: heartbeats do not count; the stream ends with HANDLER_TIMEOUT, the signal aborts', async () => {
    const seen: Seen = {}
    const { port, logger } = await serve(express, (app) =>
      app.get(
        '/feed',
        ...handle({ events: { tick: Tick }, timeout: { idle: 150 } }, async (req, res) => {
          const stream = res.sse({ heartbeat: 20 })
          await stream.send('tick', { n: 1 })
          await aborted(req.signal)
          seen.reason = (req.signal.reason as Error).name
          seen.laterSend = await stream.send('tick', { n: 2 }).catch((e: unknown) => e)
          // What a handler whose work was aborted throws: nothing more is answered or logged.
          throw req.signal.reason
        }),
      ),
    )
    const started = performance.now()
    const answer = await readStream(port, '/feed')
    const took = performance.now() - started
    expect(took).toBeGreaterThanOrEqual(140)
    expect(took).toBeLessThan(2000)
    // Heartbeats went meanwhile, and did not keep the stream alive.
    expect(answer.text).toContain(': ping')
    const events = new SseParser().push(answer.text)
    expect(events.map((e) => e.event)).toEqual(['tick', 'error'])
    const body = JSON.parse(events[1]!.data)
    expect(body.error).toMatchObject({ code: 'HANDLER_TIMEOUT', details: null })
    await until(() => seen.laterSend !== undefined)
    expect(seen.reason).toBe('TimeoutError')
    expect(isStreamClosed(seen.laterSend)).toBe(true)
    await until(() => timedOutLines(logger).length === 1)
    await sleep(50)
    expect(timedOutLines(logger)).toHaveLength(1)
    expect(timedOutLines(logger)[0]!.meta).toMatchObject({ status: 200, stream: { events: 2 } })
    expect(JSON.stringify(logger.records)).not.toContain('TimeoutError')
  })

  it('idle: events keep the stream alive past the limit; no error when it closes', async () => {
    const { port, logger } = await serve(express, (app) =>
      app.get(
        '/feed',
        ...handle({ events: { tick: Tick }, timeout: { idle: 100 } }, async (_req, res) => {
          const stream = res.sse({ heartbeat: false })
          for (let n = 0; n < 10; n++) {
            await stream.send('tick', { n })
            await sleep(30)
          }
          await stream.close()
        }),
      ),
    )
    const events = new SseParser().push((await readStream(port, '/feed')).text)
    expect(events.map((e) => e.event)).toEqual(Array(10).fill('tick'))
    await sleep(50)
    expect(timedOutLines(logger)).toEqual([])
  })

  it("total: ends the stream while events flow, the app's limit under the route's (problem+json)", async () => {
    const seen: Seen = {}
    const { port } = await serve(
      express,
      (app) =>
        app.get(
          '/feed',
          // The route sets idle; total comes from shapeguard({ timeout }).
          ...handle({ events: { tick: Tick }, timeout: { idle: 1000 } }, async (req, res) => {
            const stream = res.sse({ heartbeat: false })
            for (let n = 0; !req.signal.aborted && n < 200; n++) {
              await stream.send('tick', { n }).catch(() => {})
              await sleep(10)
            }
            seen.reason = (req.signal.reason as Error | undefined)?.name
          }),
        ),
      { timeout: { total: 200 }, errors: { format: 'problem+json' } },
    )
    const started = performance.now()
    const answer = await readStream(port, '/feed')
    expect(performance.now() - started).toBeLessThan(1500)
    const events = new SseParser().push(answer.text)
    const ticks = events.filter((e) => e.event === 'tick').length
    expect(ticks).toBeGreaterThan(3)
    expect(ticks).toBeLessThan(200)
    expect(events.at(-1)!.event).toBe('error')
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ status: 503, code: 'HANDLER_TIMEOUT' })
    await until(() => seen.reason !== undefined)
    expect(seen.reason).toBe('TimeoutError')
  })

  it('NDJSON: the idle limit ends with an error line, the iterable is stopped', async () => {
    let finished = false
    async function* rows(signal: AbortSignal) {
      try {
        yield { n: 1 }
        // Silent past the limit.
        await aborted(signal)
        yield { n: 2 }
      } finally {
        finished = true
      }
    }
    const { port, logger } = await serve(express, (app) =>
      app.get(
        '/rows',
        ...handle({ stream: Tick, timeout: { idle: 100 } }, async (req, res) => {
          await res.ndjson(rows(req.signal))
        }),
      ),
    )
    const answer = await readStream(port, '/rows')
    const [first, error, ...rest] = lines(answer.text)
    expect(first).toEqual({ n: 1 })
    expect(error).toMatchObject({ success: false, error: { code: 'HANDLER_TIMEOUT' } })
    expect(typeof error.requestId).toBe('string')
    expect(rest).toEqual([])
    await until(() => finished)
    expect(finished).toBe(true)
    await until(() => timedOutLines(logger).length === 1)
    await sleep(50)
    expect(timedOutLines(logger)).toHaveLength(1)
  })

  it('leaves no timer behind: a stream that ends, one that times out, one whose client goes', async () => {
    // Limits far longer than the test: only clearing them ends their timers in time.
    const long = { events: { tick: Tick }, timeout: { idle: 60_000, total: 120_000 } }
    const { port } = await serve(express, (app) => {
      app.get(
        '/closes',
        ...handle(long, async (_req, res) => {
          const stream = res.sse({ heartbeat: false })
          await stream.send('tick', { n: 1 })
          await stream.close()
        }),
      )
      app.get(
        '/stays',
        ...handle(long, async (req, res) => {
          await res.sse({ heartbeat: false }).send('tick', { n: 1 })
          await aborted(req.signal)
        }),
      )
      app.get(
        '/silent',
        ...handle({ events: { tick: Tick }, timeout: { idle: 100 } }, async (req, res) => {
          res.sse({ heartbeat: false })
          await aborted(req.signal)
        }),
      )
    })
    const timers = trackStreamTimers()
    try {
      await readStream(port, '/closes')
      await waitFor(() => timers.live() === 0, 1000, 'the closed stream to be untimed')
      const silent = readStream(port, '/silent')
      await waitFor(() => timers.live() === 1, 3000, 'the silent stream to be timed')
      await silent
      await waitFor(() => timers.live() === 0, 1000, 'the timed-out stream to be untimed')
      // The client goes after the first event, long before either limit.
      await readStream(port, '/stays', { until: (text) => text.includes('tick') })
      await waitFor(() => timers.live() === 0, 1000, 'the stream timers to be cleared')
    } finally {
      timers.stop()
    }
  })
})

describe('a route timeout', () => {
  it('is checked when the route is defined', () => {
    expect(() => handle({ events: { tick: Tick }, timeout: { idle: 0 } }, () => {})).toThrow(
      /timeout\.idle must be an integer from 1/,
    )
  })
})
