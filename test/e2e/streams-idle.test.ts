import { type ChildProcess, execFileSync, fork } from 'node:child_process'
import { resolve } from 'node:path'
import express from 'express'
import { expect, it } from 'vitest'
import * as z from 'zod'
import { errorHandler, handle, notFoundHandler, shapeguard } from '../../src/index.js'
import { captureLogger } from '../support/e2e.js'
import {
  activeResources,
  backToBaseline,
  figure,
  heapAfterGc,
  listen,
  RawClient,
  trackTimers,
  waitFor,
} from '../support/streams.js'

// 10,000 idle SSE streams on one server, held by a child process (each connection is a file
// descriptor on both sides: one process would need twice as many). What each costs the server,
// and that all of it (sockets, heartbeat timers, listeners) is given back when they close.

const CLIENTS = resolve(import.meta.dirname, 'fixtures/idle-clients.ts')
const WANTED = 10_000

// The file descriptors this process may open: some are the test runner's own.
function streamsThatFit(): number {
  const limit = Number(execFileSync('sh', ['-c', 'ulimit -n']).toString().trim())
  return Number.isFinite(limit) ? Math.min(WANTED, limit - 1000) : WANTED
}

function message<T>(child: ChildProcess, key: string, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no '${key}' from the clients`)), ms)
    const listener = (m: Record<string, unknown>) => {
      if (!(key in m)) return
      clearTimeout(timer)
      child.off('message', listener)
      resolve(m as T)
    }
    child.on('message', listener)
    child.once('exit', () => reject(new Error('the clients exited')))
  })
}

it('holds 10,000 idle SSE streams in a few KB each and gives everything back', async () => {
  const count = streamsThatFit()
  const log = captureLogger()
  let open = 0
  let ended = 0
  const app = express()
  app.use(shapeguard({ debug: false, logger: { instance: log } }))
  app.get(
    '/idle',
    ...handle({ events: { tick: z.object({ n: z.number() }) } }, async (req, res) => {
      res.sse({ heartbeat: 15_000 })
      open++
      // what a real idle stream's handler does: waits for the client to go
      await new Promise((resolve) => req.signal.addEventListener('abort', resolve, { once: true }))
      ended++
    }),
  )
  app.use(notFoundHandler())
  app.use(errorHandler({ logger: log }))
  const server = await listen(app)
  let child: ChildProcess | undefined
  try {
    // warm up: one stream opened and closed, so the code it runs is compiled before measuring
    const warm = new RawClient(server.port, '/idle')
    expect((await warm.head).status).toBe(200)
    warm.destroy()
    await waitFor(() => ended === 1)
    open = 0
    ended = 0
    const baseline = activeResources()
    const heapBefore = heapAfterGc()
    const rssBefore = process.memoryUsage.rss()
    const started = Date.now()
    child = fork(CLIENTS, [String(server.port), '/idle', String(count)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    })
    const opened = await message<{ open: number; failed: number }>(child, 'open', 40_000)
    expect(opened).toEqual({ open: count, failed: 0 })
    await waitFor(() => open === count, 5000, 'every handler')
    const heap = heapAfterGc() - heapBefore
    const rss = process.memoryUsage.rss() - rssBefore
    const during = activeResources()
    figure(
      `${count} idle SSE streams opened in ${((Date.now() - started) / 1000).toFixed(1)} s: heap ${(heap / count / 1024).toFixed(2)} KB per stream, RSS ${(rss / count / 1024).toFixed(2)} KB per stream; active resources ${JSON.stringify(during)}`,
    )
    expect(heap / count).toBeLessThan(16 * 1024)
    expect(log.records.filter((r) => r.level === 'error')).toEqual([])

    child.send('close')
    await message(child, 'closed', 10_000)
    await waitFor(() => ended === count, 10_000, 'every handler to see its client go')
    // sockets, heartbeat timers and listeners all released
    expect(await backToBaseline(baseline, 5000)).toEqual({})
    const left = heapAfterGc() - heapBefore
    figure(`after closing: heap ${(left / 1024).toFixed(0)} KB over the baseline`)
    expect(left / count).toBeLessThan(512)
  } finally {
    child?.kill()
    await server.close()
  }
}, 60_000)

// The heartbeat timers are unref'd, so the active resources above do not list them: counted here
// through async_hooks (too slow for 10,000 streams), whichever side ends the stream.
it.each([
  ['the client goes', true],
  ['the handler closes', false],
])('clears every heartbeat timer when %s', async (_, clientGoes) => {
  const log = captureLogger()
  const streams: Array<{ close(): Promise<void> }> = []
  const app = express()
  app.use(shapeguard({ debug: false, logger: { instance: log } }))
  app.get(
    '/idle',
    ...handle({ events: { tick: z.object({ n: z.number() }) } }, (_req, res) => {
      streams.push(res.sse({ heartbeat: 20 }))
    }),
  )
  app.use(errorHandler({ logger: log }))
  const server = await listen(app)
  const timers = trackTimers()
  try {
    const clients = Array.from({ length: 100 }, () => new RawClient(server.port, '/idle'))
    await Promise.all(clients.map((c) => c.head))
    expect(timers.live()).toBeGreaterThanOrEqual(100)
    // pings go out on every stream
    await Promise.all(clients.map((c) => c.until(() => c.text().includes(': ping'), 3000)))
    if (clientGoes) for (const c of clients) c.destroy()
    else await Promise.all(streams.map((s) => s.close()))
    await Promise.all(clients.map((c) => c.until(() => c.ended, 3000)))
    // the server's kept-alive sockets have timers of their own
    for (const c of clients) c.destroy()
    await waitFor(() => timers.live() < 5, 3000, 'the heartbeat timers to be cleared')
    expect(log.records.filter((r) => r.level === 'error')).toEqual([])
  } finally {
    timers.stop()
    await server.close()
  }
})
