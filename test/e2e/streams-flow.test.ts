import { request as httpRequest } from 'node:http'
import type { Response } from 'express'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { handle, type SseStream } from '../../src/index.js'
import { SseParser } from '../../src/shared/event-stream.js'
import { type Express, hosts } from '../support/e2e.js'
import { readStream, until, useStreamApps } from './streams-client.js'

const Chunk = z.object({ text: z.string() })
// An asynchronous schema: its check awaits.
const Slow = z.object({ n: z.number() }).refine(async (value) => value.n >= 0)

const serveApp = useStreamApps()
const serve = async (express: Express, mount: (app: ReturnType<Express>) => void) =>
  (await serveApp(express, mount, { logger: { silent: true } })).port

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length

describe.each(hosts)('stream flow control on %s', (_, express) => {
  it('send() waits for drain: a client that does not read holds the handler, not memory', async () => {
    const big = 'x'.repeat(64 * 1024)
    let written = 0
    let finished = false
    const port = await serve(express, (app) =>
      app.get(
        '/big',
        ...handle({ events: { chunk: Chunk } }, async (_req, res) => {
          const stream = res.sse({ heartbeat: false })
          for (let i = 0; i < 200; i++) {
            await stream.send('chunk', { text: big })
            written++
          }
          await stream.close()
          finished = true
        }),
      ),
    )
    let received = 0
    const paused = await new Promise<import('node:http').IncomingMessage>((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/big' }, (res) => {
        res.pause()
        resolve(res)
      })
      req.end()
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    // 200 events are 13 MB: far fewer went out while nobody read.
    expect(written).toBeLessThan(100)
    paused.on('data', (chunk: Buffer) => {
      received += chunk.length
    })
    const ended = new Promise((resolve) => paused.on('end', resolve))
    paused.resume()
    await ended
    expect(finished).toBe(true)
    expect(written).toBe(200)
    expect(received).toBeGreaterThan(200 * 64 * 1024)
  })

  it('sends settle in order, with an asynchronous schema among them', async () => {
    const port = await serve(express, (app) =>
      app.get(
        '/order',
        ...handle({ events: { chunk: Chunk, slow: Slow } }, async (_req, res) => {
          const stream = res.sse()
          // Not awaited one by one: the stream keeps their order.
          await Promise.all([
            stream.send('slow', { n: 1, extra: 'no' } as never),
            stream.send('chunk', { text: 'b' }),
            stream.send('slow', { n: 3 }),
          ])
          await stream.close()
        }),
      ),
    )
    const events = new SseParser().push((await readStream(port, '/order')).text)
    expect(events.map((e) => e.data)).toEqual(['{"n":1}', '{"text":"b"}', '{"n":3}'])
  })

  it('an unknown event or a forging id rejects that send; the stream goes on', async () => {
    const errors: unknown[] = []
    const port = await serve(express, (app) =>
      app.get(
        '/misuse',
        ...handle({ events: { chunk: Chunk } }, async (_req, res) => {
          const stream = res.sse() as SseStream<Record<string, unknown>>
          await stream.send('nope', {}).catch((err) => errors.push(err))
          await stream
            .send('chunk', { text: 'a' }, { id: '1\nevent: x' })
            .catch((err) => errors.push(err))
          await stream.send('chunk', { text: 'ok' })
          await stream.close()
          await stream.close()
        }),
      ),
    )
    const text = (await readStream(port, '/misuse')).text
    expect(text).toBe('event: chunk\ndata: {"text":"ok"}\n\n')
    expect(errors).toMatchObject([
      { code: 'SG_ERR_UNKNOWN_NAME' },
      { code: 'SG_ERR_INVALID_OPTION' },
    ])
    expect(String((errors[0] as Error).message)).not.toContain('nope')
  })

  it('releases its listeners and its heartbeat timer when the client goes', async () => {
    let response: Response | undefined
    let gone = false
    const port = await serve(express, (app) =>
      app.get(
        '/idle',
        ...handle({ events: { chunk: Chunk } }, async (req, res) => {
          response = res
          res.sse({ heartbeat: 10 })
          req.signal.addEventListener('abort', () => {
            gone = true
          })
        }),
      ),
    )
    const before = timers()
    await readStream(port, '/idle', { until: (text) => text.includes(': ping') })
    expect(await until(() => gone)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(response!.listenerCount('drain')).toBe(0)
    expect(timers()).toBeLessThanOrEqual(before)
  })
})
