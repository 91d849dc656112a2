import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AppError, handle } from '../../src/index.js'
import { SseParser } from '../../src/shared/event-stream.js'
import { hosts } from '../support/e2e.js'
import { readStream, useStreamApps } from './streams-client.js'

const Token = z.object({ text: z.string() })
const Done = z.object({ total: z.number() })
const events = { token: Token, done: Done }

const serve = useStreamApps()

function parse(text: string) {
  return new SseParser().push(text)
}

describe.each(hosts)('Server-Sent Events on %s', (_, express) => {
  it('writes the head and each event framed, stripped by its schema', async () => {
    const { port } = await serve(express, (app) =>
      app.get(
        '/tokens',
        ...handle({ events }, async (_req, res) => {
          const stream = res.sse({ retry: 2000 })
          await stream.send('token', { text: 'hel', secret: 'x' } as never, { id: '1' })
          await stream.send('token', { text: 'lo\nworld\u2028' })
          await stream.send('done', { total: 2 })
          await stream.close()
        }),
      ),
    )
    const answer = await readStream(port, '/tokens')
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('text/event-stream; charset=utf-8')
    expect(answer.headers['cache-control']).toBe('no-cache, no-transform')
    expect(answer.headers['x-accel-buffering']).toBe('no')
    expect(answer.headers['content-length']).toBeUndefined()
    expect(answer.text).toBe(
      'retry: 2000\n\n' +
        'event: token\nid: 1\ndata: {"text":"hel"}\n\n' +
        'event: token\ndata: {"text":"lo\\nworld\\u2028"}\n\n' +
        'event: done\ndata: {"total":2}\n\n',
    )
    expect(parse(answer.text).map((e) => [e.event, JSON.parse(e.data)])).toEqual([
      ['token', { text: 'hel' }],
      ['token', { text: 'lo\nworld\u2028' }],
      ['done', { total: 2 }],
    ])
  })

  it('ends with an error event when data fails its schema, and logs it once', async () => {
    const { port, logger } = await serve(express, (app) =>
      app.get(
        '/bad',
        ...handle({ events }, async (_req, res) => {
          const stream = res.sse()
          await stream.send('token', { text: 'ok' })
          // A value no request ID can hold (those are letters and hex digits).
          await stream.send('token', { text: -4242.5 } as never)
        }),
      ),
    )
    const answer = await readStream(port, '/bad')
    const parsed = parse(answer.text)
    expect(parsed.map((e) => e.event)).toEqual(['token', 'error'])
    const body = JSON.parse(parsed[1]!.data)
    expect(body.success).toBe(false)
    expect(body.error.code).toBe('INTERNAL_ERROR')
    expect(answer.text).not.toContain('-4242.5')
    expect(answer.text).not.toContain('stack')
    await new Promise((resolve) => setTimeout(resolve, 50))
    const lines = logger.records.filter((r) => r.meta.status !== undefined)
    expect(lines).toHaveLength(1)
    expect(lines[0]!.level).toBe('error')
    expect(lines[0]!.meta.code).toBe('INTERNAL_ERROR')
    expect(lines[0]!.meta.stream).toMatchObject({ events: 2 })
    expect(JSON.stringify(logger.records)).not.toContain('-4242.5')
  })

  it('answers an error before res.sse() as any route does', async () => {
    const { port } = await serve(express, (app) =>
      app.get(
        '/missing',
        ...handle({ events }, () => {
          throw AppError.notFound('Feed')
        }),
      ),
    )
    const answer = await readStream(port, '/missing')
    expect(answer.status).toBe(404)
    expect(JSON.parse(answer.text).error.code).toBe('NOT_FOUND')
  })

  it('answers an error that merely carries the code STREAM_CLOSED where no stream started', async () => {
    const { port } = await serve(express, (app) =>
      app.get(
        '/not-streaming',
        ...handle({ events }, () => {
          throw Object.assign(new Error('a library of its own'), { code: 'STREAM_CLOSED' })
        }),
      ),
    )
    const answer = await readStream(port, '/not-streaming')
    expect(answer.status).toBe(500)
    expect(JSON.parse(answer.text).error.code).toBe('INTERNAL_ERROR')
  })

  it('refuses a heartbeat past what a timer holds (it would fire every millisecond)', async () => {
    const thrown: unknown[] = []
    const { port } = await serve(express, (app) =>
      app.get(
        '/tokens',
        ...handle({ events }, (_req, res) => {
          try {
            res.sse({ heartbeat: 3e9 })
          } catch (err) {
            thrown.push(err)
            throw err
          }
        }),
      ),
    )
    expect((await readStream(port, '/tokens')).status).toBe(500)
    expect(thrown[0]).toMatchObject({ name: 'TypeError', code: 'SG_ERR_INVALID_OPTION' })
  })
})
