import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AppError, handle, isStreamClosed, StreamClosedError } from '../../src/index.js'
import { NdjsonParser, SseParser } from '../../src/shared/event-stream.js'
import { type captureLogger, hosts } from '../support/e2e.js'
import { readStream, until, useStreamApps } from './streams-client.js'

const Token = z.object({ text: z.string() })
const Row = z.object({ id: z.number() })

const serve = useStreamApps()

const lines = (text: string) => {
  const parser = new NdjsonParser()
  return [...parser.push(text), ...parser.end()].map((line) => JSON.parse(line))
}

const responseLines = (logger: ReturnType<typeof captureLogger>) =>
  logger.records.filter((r) => r.meta.status !== undefined)

describe.each(hosts)('streams on %s', (_, express) => {
  it('NDJSON: send() and close(), each line stripped, application/x-ndjson', async () => {
    const { port, logger } = await serve(express, (app) =>
      app.get(
        '/rows',
        ...handle({ stream: Row }, async (_req, res) => {
          const stream = res.ndjson()
          await stream.send({ id: 1, password: 'x' } as never)
          await stream.send({ id: 2 })
          await stream.close()
        }),
      ),
    )
    const answer = await readStream(port, '/rows')
    expect(answer.headers['content-type']).toBe('application/x-ndjson')
    expect(answer.text).toBe('{"id":1}\n{"id":2}\n')
    await until(() => responseLines(logger).length === 1)
    const [line] = responseLines(logger)
    expect(line!.meta.status).toBe(200)
    expect(line!.meta.stream).toMatchObject({ events: 2, bytes: 18 })
  })

  it('NDJSON: an async iterable is pulled one item at a time, then the stream ends', async () => {
    async function* rows() {
      for (let id = 1; id <= 3; id++) yield { id, extra: true }
    }
    const { port } = await serve(express, (app) =>
      app.get(
        '/export',
        ...handle({ stream: Row }, async (_req, res) => {
          await res.ndjson(rows())
        }),
      ),
    )
    expect(lines((await readStream(port, '/export')).text)).toEqual([
      { id: 1 },
      { id: 2 },
      { id: 3 },
    ])
  })

  it('NDJSON: a handler that throws after the first line ends with an error line (problem+json)', async () => {
    async function* rows() {
      yield { id: 1 }
      throw AppError.conflict('Export moved')
    }
    const { port, logger } = await serve(
      express,
      (app) =>
        app.get(
          '/export',
          ...handle({ stream: Row }, async (_req, res) => {
            await res.ndjson(rows())
          }),
        ),
      { errors: { format: 'problem+json' } },
    )
    const answer = await readStream(port, '/export')
    const [first, error] = lines(answer.text)
    expect(first).toEqual({ id: 1 })
    expect(error).toMatchObject({ status: 409, code: 'CONFLICT' })
    expect(typeof error.requestId).toBe('string')
    await until(() => responseLines(logger).length === 1)
    expect(responseLines(logger)[0]).toMatchObject({ level: 'warn', meta: { code: 'CONFLICT' } })
  })

  it('SSE: a handler that throws after the first event ends with an error event, no stack', async () => {
    const { port, logger } = await serve(express, (app) =>
      app.get(
        '/feed',
        ...handle({ events: { token: Token } }, async (_req, res) => {
          const stream = res.sse()
          await stream.send('token', { text: 'a' })
          throw new Error('db down')
        }),
      ),
    )
    const events = new SseParser().push((await readStream(port, '/feed')).text)
    expect(events.map((e) => e.event)).toEqual(['token', 'error'])
    const body = JSON.parse(events[1]!.data)
    expect(body.error).toMatchObject({ code: 'INTERNAL_ERROR', details: null })
    expect(events[1]!.data).not.toContain('streams-lifecycle')
    await until(() => responseLines(logger).length === 1)
    expect(responseLines(logger)[0]!.level).toBe('error')
  })

  it('SSE: heartbeats on an interval, Last-Event-ID reaches the handler when valid', async () => {
    const seen: unknown[] = []
    const { port } = await serve(express, (app) =>
      app.get(
        '/ping',
        ...handle({ events: { token: Token } }, async (req, res) => {
          seen.push(req.lastEventId)
          const stream = res.sse({ heartbeat: 20 })
          await new Promise((resolve) => setTimeout(resolve, 70))
          await stream.close()
        }),
      ),
    )
    const answer = await readStream(port, '/ping', { headers: { 'Last-Event-ID': '41' } })
    expect(answer.text.match(/: ping\n\n/g)!.length).toBeGreaterThanOrEqual(2)
    expect(new SseParser().push(answer.text)).toEqual([])
    await readStream(port, '/ping', { headers: { 'Last-Event-ID': 'x'.repeat(1025) } })
    expect(seen).toEqual(['41', undefined])
  })

  it('the client going aborts req.signal, rejects send with StreamClosedError, stops the iterable, logs no error', async () => {
    let signal: AbortSignal | undefined
    let rejected: unknown
    let returned = false
    let pending: Promise<void> | undefined
    async function* forever() {
      try {
        for (let id = 0; ; id++) {
          yield { id }
          await new Promise((resolve) => setTimeout(resolve, 5))
        }
      } finally {
        returned = true
      }
    }
    const { port, logger } = await serve(express, (app) => {
      app.get(
        '/sse',
        ...handle({ events: { token: Token } }, async (req, res) => {
          signal = req.signal
          const stream = res.sse({ heartbeat: false })
          await stream.send('token', { text: 'first' })
          await new Promise((resolve) => req.signal.addEventListener('abort', resolve))
          try {
            await stream.send('token', { text: 'late' })
          } catch (err) {
            rejected = err
            throw err
          }
        }),
      )
      app.get(
        '/rows',
        ...handle({ stream: Row }, (_req, res) => {
          pending = res.ndjson(forever())
          return pending
        }),
      )
    })
    await readStream(port, '/sse', { until: (text) => text.includes('first') })
    expect(await until(() => rejected !== undefined)).toBe(true)
    expect(signal!.aborted).toBe(true)
    expect(rejected).toBeInstanceOf(StreamClosedError)
    expect(isStreamClosed(rejected)).toBe(true)
    await readStream(port, '/rows', { until: (text) => text.split('\n').length > 3 })
    expect(await until(() => returned)).toBe(true)
    await expect(pending).rejects.toBeInstanceOf(StreamClosedError)
    await until(() => responseLines(logger).length === 2)
    const logged = responseLines(logger)
    expect(logged.map((r) => r.level)).toEqual(['info', 'info'])
    expect(logged.map((r) => (r.meta.stream as { clientGone?: boolean }).clientGone)).toEqual([
      true,
      true,
    ])
    expect(logger.records.some((r) => r.level === 'error')).toBe(false)
  })

  it('an abort the handler passed req.signal on to is let pass once the client went', async () => {
    let thrown: unknown
    const { port, logger } = await serve(express, (app) =>
      app.get(
        '/ticks',
        ...handle({ events: { token: Token } }, async (req, res) => {
          const stream = res.sse({ heartbeat: false })
          await stream.send('token', { text: 'first' })
          try {
            await sleep(60_000, undefined, { signal: req.signal })
          } catch (err) {
            thrown = err
            throw err
          }
        }),
      ),
    )
    await readStream(port, '/ticks', { until: (text) => text.includes('first') })
    expect(await until(() => thrown !== undefined)).toBe(true)
    expect(thrown).toMatchObject({ name: 'AbortError' })
    expect(isStreamClosed((thrown as Error).cause)).toBe(true)
    await until(() => responseLines(logger).length === 1)
    expect(logger.records.some((r) => r.level === 'error')).toBe(false)
  })

  it('a rate-limited streaming route answers 429 in the envelope before any stream', async () => {
    const { port } = await serve(express, (app) =>
      app.get(
        '/limited',
        ...handle(
          { events: { token: Token }, rateLimit: { windowMs: 60_000, max: 1 } },
          (_req, res) => res.sse().close(),
        ),
      ),
    )
    expect((await readStream(port, '/limited')).status).toBe(200)
    const refused = await readStream(port, '/limited')
    expect(refused.status).toBe(429)
    expect(refused.headers['content-type']).toMatch(/^application\/json/)
    expect(JSON.parse(refused.text)).toMatchObject({
      success: false,
      error: { code: 'RATE_LIMIT_EXCEEDED', details: { retryAfter: 60 } },
    })
  })

  it('res.sse() twice is a misuse error, answered before the stream if nothing was sent', async () => {
    let second: unknown
    const { port } = await serve(express, (app) =>
      app.get(
        '/twice',
        ...handle({ events: { token: Token } }, async (_req, res) => {
          const stream = res.sse()
          try {
            res.sse()
          } catch (err) {
            second = err
          }
          await stream.close()
        }),
      ),
    )
    await readStream(port, '/twice')
    expect(second).toMatchObject({ code: 'SG_ERR_STREAM_STARTED' })
  })
})
