import { fork } from 'node:child_process'
import { resolve } from 'node:path'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import {
  errorHandler,
  handle,
  notFoundHandler,
  StreamClosedError,
  shapeguard,
} from '../../src/index.js'
import { NdjsonParser, SseParser } from '../../src/shared/event-stream.js'
import { captureLogger, hosts } from '../support/e2e.js'
import {
  activeResources,
  backToBaseline,
  figure,
  type Listening,
  listen,
  peakRss,
  RawClient,
  sleep,
  stateOf,
  waitFor,
} from '../support/streams.js'

// What a stream costs and gives back: backpressure from a client that reads slowly or never,
// a client that leaves mid-event, and many events fast. Each test is bounded in time; the
// 10,000 idle streams are in streams-idle.test.ts.

const MB = 1024 * 1024
const READER = resolve(import.meta.dirname, 'fixtures/slow-reader.ts')

const servers: Listening[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

const isStreamClosed = (error: unknown) => error instanceof StreamClosedError

type App = ReturnType<typeof express>

function appOf(make: () => App, mount: (app: App) => void) {
  const log = captureLogger()
  const app = make()
  app.use(shapeguard({ debug: false, logger: { instance: log } }))
  mount(app)
  app.use(notFoundHandler())
  app.use(errorHandler({ logger: log }))
  return { app, log }
}

async function serveApp(app: App): Promise<Listening> {
  const server = await listen(app)
  servers.push(server)
  return server
}

/** Unhandled rejections while `fn` runs (vitest would report them later, elsewhere). */
async function unhandledDuring(fn: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = []
  const listener = (reason: unknown) => seen.push(reason)
  process.on('unhandledRejection', listener)
  try {
    await fn()
    // a rejection is reported after a turn of the event loop
    await sleep(50)
  } finally {
    process.off('unhandledRejection', listener)
  }
  return seen
}

const BLOB = 'x'.repeat(64 * 1024 - 32)
const Blob = z.object({ i: z.number(), text: z.string() })

/** A handler sending `total` bytes of 64 KB events, awaiting each; its progress, for the test. */
function blobRoute(total: number, make: () => App = express) {
  const progress = {
    sent: 0,
    done: false,
    error: undefined as unknown,
    aborted: false,
    closed: false,
    pending: undefined as Promise<void> | undefined,
  }
  const { app, log } = appOf(make, (app) =>
    app.get(
      '/blobs',
      ...handle({ events: { blob: Blob } }, async (req, res) => {
        const stream = res.sse({ heartbeat: false })
        try {
          for (let i = 0; progress.sent < total; i++) {
            progress.pending = stream.send('blob', { i, text: BLOB })
            await progress.pending
            progress.sent += BLOB.length
          }
          await stream.close()
          progress.done = true
        } catch (error) {
          progress.error = error
          // closing a stream whose client went settles at once
          await stream.close()
          progress.closed = true
        } finally {
          progress.aborted = req.signal.aborted
        }
      }),
    ),
  )
  return { app, log, progress }
}

describe('backpressure', () => {
  it('keeps RSS flat while a client never reads and the handler tries to send 100 MB', async () => {
    const { app, log, progress } = blobRoute(100 * MB)
    const server = await serveApp(app)
    const baseline = activeResources()
    const before = process.memoryUsage.rss()
    const client = new RawClient(server.port, '/blobs', { paused: true, keep: false })
    const { peak, value: stalled } = await peakRss(async () => {
      // until the handler stops getting anywhere: the socket's and the kernel's buffers are full
      let last = -1
      while (progress.sent !== last) {
        last = progress.sent
        await sleep(300)
      }
      return last
    })
    const growth = peak - before
    figure(
      `never-reading client: the handler got ${(stalled / MB).toFixed(1)} MB out before waiting, RSS growth ${(growth / MB).toFixed(1)} MB`,
    )
    expect(stalled).toBeLessThan(40 * MB)
    expect(growth).toBeLessThan(40 * MB)
    expect(await stateOf(progress.pending!, 200)).toBe('pending')
    // The client leaves: the waiting send rejects, the signal aborts, nothing is logged.
    client.destroy()
    await expect(progress.pending).rejects.toSatisfy(isStreamClosed)
    await waitFor(() => progress.aborted)
    expect(isStreamClosed(progress.error)).toBe(true)
    expect(log.records.filter((r) => r.level === 'error')).toEqual([])
    expect(await backToBaseline(baseline)).toEqual({})
  }, 30_000)

  // A client reading 1 byte a second would take years for 100 MB. What matters is that the
  // reader is much slower than the writer: a paused socket read 64 KB every 2 ms (tens of MB/s,
  // against the GB/s the handler could write on loopback) makes the handler wait on every send
  // once the buffers are full, as a 1 byte/s reader would. The reader is a child process, so
  // that its own garbage is not counted in the server's RSS.
  it('keeps RSS flat and the handler just ahead of a slow reader through 100 MB', async () => {
    const total = 100 * MB
    // a first 32 MB read at full speed: the young generation has grown to its size for this
    // traffic before the measure, which then shows what is buffered rather than garbage
    const warm = blobRoute(32 * MB)
    const warmServer = await serveApp(warm.app)
    const first = new RawClient(warmServer.port, '/blobs', { keep: false })
    await first.until(() => first.ended, 10_000, 'the warm-up stream')
    const { app, log, progress } = blobRoute(total)
    const server = await serveApp(app)
    const before = process.memoryUsage.rss()
    const started = Date.now()
    let received = 0
    let ahead = 0
    const reader = fork(READER, [String(server.port), '/blobs', String(64 * 1024), '2'], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    })
    try {
      const { peak } = await peakRss(
        () =>
          new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error('the reader did not finish')), 30_000)
            reader.on('message', (m: { received?: number; done?: number }) => {
              received = m.received ?? m.done ?? received
              ahead = Math.max(ahead, progress.sent - received)
              if (m.done === undefined) return
              clearTimeout(timer)
              resolve()
            })
          }),
      )
      const growth = peak - before
      const seconds = (Date.now() - started) / 1000
      figure(
        `slow reader: 100 MB in ${seconds.toFixed(1)} s, the handler at most ${(ahead / MB).toFixed(1)} MB ahead of the reader, server RSS growth ${(growth / MB).toFixed(1)} MB`,
      )
      expect(progress.done).toBe(true)
      expect(received).toBeGreaterThan(total)
      expect(ahead).toBeLessThan(32 * MB)
      expect(growth).toBeLessThan(40 * MB)
      expect(log.records.filter((r) => r.level === 'error')).toEqual([])
    } finally {
      reader.kill()
    }
  }, 40_000)
})

describe.each(hosts)('%s: a client that leaves mid-event', (_, make) => {
  it('rejects the pending send with StreamClosedError, aborts req.signal, logs and writes nothing', async () => {
    const { app, log, progress } = blobRoute(64 * MB, make)
    const server = await serveApp(app)
    const baseline = activeResources()
    const unhandled = await unhandledDuring(async () => {
      const client = new RawClient(server.port, '/blobs', { paused: true })
      // part of the first events read, then the connection drops with a send waiting
      while (client.received < 100 * 1024) {
        client.read(16 * 1024)
        await sleep(1)
      }
      await waitFor(() => progress.pending !== undefined)
      client.destroy()
      await waitFor(() => progress.error !== undefined)
      expect(client.text()).not.toContain('event: error')
    })
    expect(isStreamClosed(progress.error)).toBe(true)
    expect(progress.aborted).toBe(true)
    expect(progress.closed).toBe(true)
    expect(unhandled).toEqual([])
    expect(log.records.filter((r) => r.level === 'error')).toEqual([])
    expect(await backToBaseline(baseline)).toEqual({})
  })

  it('lets a handler ignore StreamClosedError: nothing logged, no unhandled rejection', async () => {
    const state = { signal: undefined as AbortSignal | undefined, returned: false }
    const { app, log } = appOf(make, (app) =>
      app.get(
        '/ticks',
        ...handle({ events: { tick: z.object({ n: z.number() }) } }, async (req, res) => {
          state.signal = req.signal
          const stream = res.sse({ heartbeat: 50 })
          // no try/catch: the send after the client left rejects out of the handler
          for (let n = 0; n < 10_000; n++) {
            await stream.send('tick', { n })
            await sleep(5)
          }
          state.returned = true
        }),
      ),
    )
    const server = await serveApp(app)
    const baseline = activeResources()
    const unhandled = await unhandledDuring(async () => {
      const client = new RawClient(server.port, '/ticks')
      await client.until(() => client.text().includes('"n":3'), 3000, 'the fourth event')
      client.destroy()
      await waitFor(() => state.signal?.aborted === true)
      await sleep(100)
    })
    expect(state.returned).toBe(false)
    expect(unhandled).toEqual([])
    expect(log.records.filter((r) => r.level === 'error')).toEqual([])
    expect(await backToBaseline(baseline)).toEqual({})
  })
})

describe('100,000 events as fast as the handler can', () => {
  const COUNT = 100_000
  const Tick = z.object({ n: z.number() })

  it('arrive in order over SSE', async () => {
    let seconds = 0
    const { app } = appOf(express, (app) =>
      app.get(
        '/fast',
        ...handle({ events: { tick: Tick } }, async (_req, res) => {
          const stream = res.sse({ heartbeat: false })
          const started = performance.now()
          for (let n = 0; n < COUNT; n++)
            await stream.send('tick', { n, extra: 1 } as { n: number })
          seconds = (performance.now() - started) / 1000
          await stream.close()
        }),
      ),
    )
    const server = await serveApp(app)
    const client = new RawClient(server.port, '/fast')
    await client.until(() => client.ended, 25_000, 'the end of the stream')
    const events = new SseParser().push(client.text())
    figure(
      `SSE: ${COUNT} events in ${seconds.toFixed(2)} s (${Math.round(COUNT / seconds)}/s, seen, not a benchmark)`,
    )
    expect(events).toHaveLength(COUNT)
    events.forEach((e, n) => {
      if (e.event !== 'tick' || e.data !== `{"n":${n}}`)
        expect(e).toEqual({ event: 'tick', data: `{"n":${n}}`, id: '' })
    })
  }, 30_000)

  it.each([
    ['send()', false],
    ['an async iterable', true],
  ])(
    'arrive in order over NDJSON through %s',
    async (_, iterable) => {
      let seconds = 0
      const { app } = appOf(express, (app) =>
        app.get(
          '/fast',
          ...handle({ stream: Tick }, async (_req, res) => {
            const started = performance.now()
            if (iterable) {
              await res.ndjson(
                (async function* () {
                  for (let n = 0; n < COUNT; n++) yield { n, extra: 1 } as { n: number }
                })(),
              )
            } else {
              const stream = res.ndjson()
              for (let n = 0; n < COUNT; n++) await stream.send({ n, extra: 1 } as { n: number })
              await stream.close()
            }
            seconds = (performance.now() - started) / 1000
          }),
        ),
      )
      const server = await serveApp(app)
      const client = new RawClient(server.port, '/fast')
      await client.until(() => client.ended, 25_000, 'the end of the stream')
      const parser = new NdjsonParser()
      const lines = [...parser.push(client.text()), ...parser.end()]
      figure(
        `NDJSON (${_}): ${COUNT} items in ${seconds.toFixed(2)} s (${Math.round(COUNT / seconds)}/s, seen)`,
      )
      expect(lines).toHaveLength(COUNT)
      lines.forEach((line, n) => {
        if (line !== `{"n":${n}}`) expect(line).toBe(`{"n":${n}}`)
      })
    },
    30_000,
  )
})

describe.each(hosts)('%s: a client that leaves an endless NDJSON iterable', (_, make) => {
  it.each([
    ['a generator', false],
    ['an async generator', true],
  ])('stops pulling %s and runs its clean-up', async (__, isAsync) => {
    const state = {
      pulled: 0,
      finalized: false,
      settled: false,
      signal: undefined as AbortSignal | undefined,
    }
    function* endless() {
      try {
        for (let n = 0; ; n++) {
          state.pulled++
          yield { n }
        }
      } finally {
        state.finalized = true
      }
    }
    async function* slowly(signal: AbortSignal) {
      try {
        for (let n = 0; !signal.aborted; n++) {
          state.pulled++
          yield { n }
          await sleep(2)
        }
      } finally {
        state.finalized = true
      }
    }
    const { app, log } = appOf(make, (app) =>
      app.get(
        '/items',
        ...handle({ stream: z.object({ n: z.number() }) }, async (req, res) => {
          state.signal = req.signal
          try {
            await res.ndjson(isAsync ? slowly(req.signal) : endless())
          } finally {
            state.settled = true
          }
        }),
      ),
    )
    const server = await serveApp(app)
    const baseline = activeResources()
    const unhandled = await unhandledDuring(async () => {
      const client = new RawClient(server.port, '/items', { keep: false })
      await client.until(() => client.received > 200, 5000, 'some items')
      client.destroy()
      await waitFor(() => state.finalized && state.settled, 3000, 'the iterable to be closed')
    })
    const pulled = state.pulled
    await sleep(50)
    expect(state.pulled).toBe(pulled)
    expect(state.signal?.aborted).toBe(true)
    expect(unhandled).toEqual([])
    expect(log.records.filter((r) => r.level === 'error')).toEqual([])
    expect(await backToBaseline(baseline)).toEqual({})
  })
})
