import type { ServerResponse } from 'node:http'
import * as v from 'valibot'
import { afterEach, describe, expect, it } from 'vitest'
import * as yup from 'yup'
import { z } from 'zod'
import { readEvents, StreamError } from '../../src/client.js'
import { AppError, errorHandler, shapeguard } from '../../src/index.js'
import { hosts } from '../support/e2e.js'
import {
  closed,
  collect,
  type Listening,
  listen,
  rejection,
  sseEvent,
  sseHead,
  tick,
} from './stream-server.js'

const chat = {
  token: z.object({ text: z.string() }),
  done: z.object({ tokens: z.number() }),
}

describe.each(hosts)('readEvents on %s', (_, express) => {
  let server: Listening | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })
  const start = async (setup: (app: ReturnType<typeof express>) => void) => {
    const app = express()
    setup(app)
    server = await listen(app)
    return server.url
  }

  it('yields each event with its name, its JSON-parsed data and the last ID, asking for text/event-stream', async () => {
    const accepts: unknown[] = []
    const url = await start((app) =>
      app.get('/chat', async (req, res) => {
        accepts.push(req.headers.accept)
        sseHead(res)
        // Pieces cut mid-line and mid-character, CRLF line ends, a heartbeat, an event without
        // an ID (it keeps the last one), one without a name.
        res.write('event: token\r\nid: 1\r\nda')
        await tick(5)
        res.write(`ta: {"text":"h\u00e9`.slice(0, -1))
        res.write(Buffer.from('\u00e9').subarray(0, 1))
        await tick(5)
        res.write(Buffer.concat([Buffer.from('\u00e9').subarray(1), Buffer.from('llo"}\r\n\r\n')]))
        res.write(': ping\n\n')
        sseEvent(res, 'token', { text: 'a\nb\u2028' })
        res.write('data: {"n":1}\n\n')
        sseEvent(res, 'done', { tokens: 2 }, '2')
        res.end()
      }),
    )
    const events = await collect(readEvents(`${url}/chat`, { reconnect: false }))
    expect(events).toEqual([
      { event: 'token', data: { text: 'h\u00e9llo' }, id: '1' },
      { event: 'token', data: { text: 'a\nb\u2028' }, id: '1' },
      { event: 'message', data: { n: 1 }, id: '1' },
      { event: 'done', data: { tokens: 2 }, id: '2' },
    ])
    expect(accepts).toEqual(['text/event-stream'])
  })

  it('validates each event by its schema and yields the schema output (zod, valibot, yup)', async () => {
    const url = await start((app) =>
      app.get('/chat', (_req, res) => {
        sseHead(res)
        sseEvent(res, 'token', { text: 'hi', extra: 'dropped' })
        sseEvent(res, 'done', { tokens: '3' })
        res.end()
      }),
    )
    const zodEvents = await collect(
      readEvents(`${url}/chat`, {
        reconnect: false,
        events: { token: chat.token, done: z.object({ tokens: z.coerce.number() }) },
      }),
    )
    expect(zodEvents.map((e) => e.data)).toEqual([{ text: 'hi' }, { tokens: 3 }])
    const valibotEvents = await collect(
      readEvents(`${url}/chat`, {
        reconnect: false,
        events: {
          token: v.object({ text: v.string() }),
          done: v.object({ tokens: v.pipe(v.string(), v.transform(Number)) }),
        },
      }),
    )
    expect(valibotEvents.map((e) => e.data)).toEqual([{ text: 'hi' }, { tokens: 3 }])
    const yupEvents = await collect(
      readEvents(`${url}/chat`, {
        reconnect: false,
        events: {
          token: yup.object({ text: yup.string().required() }),
          done: yup.object({ tokens: yup.number().required() }),
        },
      }),
    )
    expect(yupEvents.map((e) => e.data)).toEqual([{ text: 'hi', extra: 'dropped' }, { tokens: 3 }])
  })

  it('throws EVENT_INVALID naming the event and the path, never the value', async () => {
    const url = await start((app) =>
      app.get('/chat', (_req, res) => {
        sseHead(res)
        sseEvent(res, 'token', { text: 'fine' })
        sseEvent(res, 'token', { text: 424242 })
        res.end()
      }),
    )
    const seen: unknown[] = []
    const error = await rejection(
      (async () => {
        for await (const e of readEvents(`${url}/chat`, { reconnect: false, events: chat }))
          seen.push(e.data)
      })(),
    )
    expect(seen).toEqual([{ text: 'fine' }])
    expect(error).toBeInstanceOf(StreamError)
    expect(error).toMatchObject({ code: 'EVENT_INVALID', event: 'token', path: 'text' })
    expect((error as Error).message).toBe(
      'the data of event "token" does not match its schema at text',
    )
    expect((error as Error).message).not.toContain('424242')
  })

  it('throws EVENT_UNDECLARED for an event the schemas do not name', async () => {
    const url = await start((app) =>
      app.get('/chat', (_req, res) => {
        sseHead(res)
        sseEvent(res, 'toString', { text: 'x' })
        res.end()
      }),
    )
    const error = await rejection(collect(readEvents(`${url}/chat`, { events: chat })))
    expect(error).toMatchObject({ code: 'EVENT_UNDECLARED', event: 'toString' })
    expect((error as Error).message).toMatch(/event "toString", which events does not declare/)
  })

  it('refuses, at the call, a schema that is not a Standard Schema', () => {
    expect(() => readEvents('http://127.0.0.1:1/', { events: { token: {} as never } })).toThrow(
      /readEvents\(\): events.token is not a Standard Schema/,
    )
  })

  it("throws the server's final error event with its code and request ID, without reconnecting", async () => {
    let requests = 0
    const url = await start((app) =>
      app.get('/chat', (_req, res) => {
        requests++
        sseHead(res)
        sseEvent(res, 'token', { text: 'a' }, '1')
        sseEvent(res, 'error', {
          type: 'about:blank',
          title: 'Bad Gateway',
          status: 502,
          detail: 'The model failed',
          code: 'UPSTREAM_FAILED',
          requestId: 'req-7',
        })
        res.end()
      }),
    )
    const seen: string[] = []
    const error = await rejection(
      (async () => {
        for await (const e of readEvents(`${url}/chat`, { reconnect: { delay: 1 } }))
          seen.push(e.event)
      })(),
    )
    expect(seen).toEqual(['token'])
    expect(error).toMatchObject({
      name: 'StreamError',
      code: 'UPSTREAM_FAILED',
      message: 'The model failed',
      status: 502,
      requestId: 'req-7',
    })
    await tick(30)
    expect(requests).toBe(1)
  })

  it('reads the error event in the envelope format too', async () => {
    const url = await start((app) =>
      app.get('/chat', (_req, res) => {
        sseHead(res)
        sseEvent(res, 'error', {
          success: false,
          message: 'Validation failed',
          error: { code: 'VALIDATION_ERROR', message: 'Validation failed', details: null },
        })
        res.end()
      }),
    )
    const error = await rejection(collect(readEvents(`${url}/chat`)))
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: undefined })
    expect((error as StreamError).body).toMatchObject({ success: false })
  })

  it("throws a non-2xx answer with the envelope's code, status and body", async () => {
    const url = await start((app) => {
      app.use(shapeguard())
      app.get('/chat', () => {
        throw AppError.unauthorized('Sign in first')
      })
      app.use(errorHandler())
    })
    const error = await rejection(collect(readEvents(`${url}/chat`)))
    expect(error).toBeInstanceOf(StreamError)
    expect(error).toMatchObject({
      code: 'UNAUTHORIZED',
      status: 401,
      message: 'Sign in first',
      body: { success: false, error: { code: 'UNAUTHORIZED' } },
    })
  })

  it('throws a non-2xx problem+json answer with its code', async () => {
    const url = await start((app) => {
      app.use(shapeguard({ errors: { format: 'problem+json' } }))
      app.get('/chat', () => {
        throw AppError.forbidden()
      })
      app.use(errorHandler())
    })
    const error = await rejection(collect(readEvents(`${url}/chat`)))
    expect(error).toMatchObject({ code: 'FORBIDDEN', status: 403, body: { status: 403 } })
  })

  it('throws HTTP_ERROR for a non-2xx answer without a code, and never reconnects after one', async () => {
    let requests = 0
    const url = await start((app) =>
      app.get('/chat', (_req, res) => {
        requests++
        res.status(502).type('html').send('<h1>Bad gateway</h1>')
      }),
    )
    const error = await rejection(collect(readEvents(`${url}/chat`, { reconnect: { delay: 1 } })))
    expect(error).toMatchObject({ code: 'HTTP_ERROR', status: 502, body: undefined })
    expect(requests).toBe(1)
  })

  it('throws STREAM_CONTENT_TYPE for a 2xx answer that is not an event stream', async () => {
    const url = await start((app) => app.get('/chat', (_req, res) => res.json({ a: 1 })))
    const error = await rejection(collect(readEvents(`${url}/chat`)))
    expect(error).toMatchObject({ code: 'STREAM_CONTENT_TYPE', status: 200 })
  })

  it('throws STREAM_MALFORMED for data that is not JSON, naming the event', async () => {
    const url = await start((app) =>
      app.get('/chat', (_req, res) => {
        sseHead(res)
        res.write('event: token\ndata: not json\n\n')
        res.end()
      }),
    )
    const error = await rejection(collect(readEvents(`${url}/chat`, { reconnect: false })))
    expect(error).toMatchObject({ code: 'STREAM_MALFORMED', event: 'token' })
    expect((error as Error).message).not.toContain('not json')
  })

  it('reconnects after the server drops the connection mid-event, sending Last-Event-ID', async () => {
    const lastIds: unknown[] = []
    const url = await start((app) =>
      app.get('/chat', (req, res) => {
        lastIds.push(req.headers['last-event-id'])
        if (lastIds.length === 3) return void res.status(204).end()
        sseHead(res, 5)
        if (lastIds.length === 1) {
          sseEvent(res, 'token', { text: 'a' }, '1')
          sseEvent(res, 'token', { text: 'b' }, '2')
          res.write('event: token\nid: 3\ndata: {"te', () => res.socket?.destroy())
        } else {
          sseEvent(res, 'token', { text: 'c' }, '3')
          res.end()
        }
      }),
    )
    const events = await collect(readEvents(`${url}/chat`, { events: chat }))
    expect(events.map((e) => [e.data, e.id])).toEqual([
      [{ text: 'a' }, '1'],
      [{ text: 'b' }, '2'],
      [{ text: 'c' }, '3'],
    ])
    // The half-written event was never dispatched: its ID is not the one resumed from.
    expect(lastIds).toEqual([undefined, '2', '3'])
  })

  it('resumes after an id sent in a block without data, as EventSource does', async () => {
    const lastIds: unknown[] = []
    const url = await start((app) =>
      app.get('/chat', (req, res) => {
        lastIds.push(req.headers['last-event-id'])
        if (lastIds.length === 2) return void res.status(204).end()
        sseHead(res, 5)
        sseEvent(res, 'token', { text: 'a' }, '1')
        res.write('id: 7\n\n', () => res.socket?.destroy())
      }),
    )
    const events = await collect(readEvents(`${url}/chat`, { events: chat }))
    expect(events.map((e) => e.id)).toEqual(['1'])
    expect(lastIds).toEqual([undefined, '7'])
  })

  it('resumes from lastEventId given, and keeps the caller headers', async () => {
    const seen: unknown[] = []
    const url = await start((app) =>
      app.get('/chat', (req, res) => {
        seen.push([req.headers['last-event-id'], req.headers.authorization, req.headers.accept])
        res.status(204).end()
      }),
    )
    const events = await collect(
      readEvents(new Request(`${url}/chat`, { headers: { authorization: 'Bearer t' } }), {
        lastEventId: '41',
        headers: { accept: 'text/event-stream, */*' },
      }),
    )
    expect(events).toEqual([])
    expect(seen).toEqual([['41', 'Bearer t', 'text/event-stream, */*']])
  })

  it("waits the server's retry before reconnecting", async () => {
    const times: number[] = []
    const url = await start((app) =>
      app.get('/chat', (_req, res) => {
        times.push(performance.now())
        if (times.length === 2) return void res.status(204).end()
        sseHead(res, 300)
        sseEvent(res, 'token', { text: 'a' }, '1')
        res.end()
      }),
    )
    await collect(readEvents(`${url}/chat`, { reconnect: { delay: 10_000 } }))
    const gap = times[1]! - times[0]!
    // Jittered between half and all of it.
    expect(gap).toBeGreaterThanOrEqual(140)
    expect(gap).toBeLessThan(2000)
  })

  it('gives up after the attempts in a row without an event (STREAM_DISCONNECTED)', async () => {
    let requests = 0
    const url = await start((app) =>
      app.get('/chat', (_req, res) => {
        requests++
        sseHead(res)
        res.socket?.destroy()
      }),
    )
    const error = await rejection(
      collect(readEvents(`${url}/chat`, { reconnect: { attempts: 2, delay: 1 } })),
    )
    expect(error).toMatchObject({ code: 'STREAM_DISCONNECTED' })
    expect((error as Error).cause).toBeInstanceOf(Error)
    expect(requests).toBe(3)
  })

  it('gives up on a server that cannot be reached', async () => {
    const url = await start(() => {})
    await server?.close()
    server = undefined
    const error = await rejection(
      collect(readEvents(`${url}/chat`, { reconnect: { attempts: 1, delay: 1 } })),
    )
    expect(error).toMatchObject({ code: 'STREAM_DISCONNECTED' })
  })

  it('ends with the stream when reconnection is off', async () => {
    let requests = 0
    const url = await start((app) =>
      app.get('/chat', (_req, res) => {
        requests++
        sseHead(res)
        sseEvent(res, 'token', { text: 'a' })
        res.end()
      }),
    )
    expect(await collect(readEvents(`${url}/chat`, { reconnect: false }))).toHaveLength(1)
    expect(requests).toBe(1)
  })

  it('reconnects a POST only when asked: a reconnection repeats its request', async () => {
    const bodies: unknown[] = []
    const url = await start((app) =>
      app.post('/chat', express.json(), (req, res) => {
        bodies.push([req.body, req.headers['last-event-id']])
        if (bodies.length === 3) return void res.status(204).end()
        sseHead(res, 1)
        sseEvent(res, 'token', { text: 'a' }, `${bodies.length}`)
        res.end()
      }),
    )
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'hi' }),
    }
    expect(await collect(readEvents(`${url}/chat`, init))).toHaveLength(1)
    expect(await collect(readEvents(`${url}/chat`, { ...init, reconnect: {} }))).toHaveLength(1)
    expect(bodies).toEqual([
      [{ prompt: 'hi' }, undefined],
      [{ prompt: 'hi' }, undefined],
      [{ prompt: 'hi' }, '2'],
    ])
  })

  it('reads a Response already fetched, without reconnecting', async () => {
    let requests = 0
    const url = await start((app) =>
      app.get('/chat', (_req, res) => {
        requests++
        sseHead(res)
        sseEvent(res, 'token', { text: 'a' })
        res.end()
      }),
    )
    const response = await fetch(`${url}/chat`)
    const events = await collect(readEvents(response, { events: chat }))
    expect(events).toEqual([{ event: 'token', data: { text: 'a' }, id: '' }])
    expect(requests).toBe(1)
    expect(() => readEvents(response)).toThrow(
      /readEvents\(\) was given a Response whose body has been read already/,
    )
  })

  describe('stopping', () => {
    let open: ServerResponse | undefined
    const endless = (app: ReturnType<typeof express>) =>
      app.get('/feed', (_req, res) => {
        open = res
        sseHead(res)
        let n = 0
        const timer = setInterval(() => sseEvent(res, 'token', { text: `${n++}` }, `${n}`), 5)
        res.on('close', () => clearInterval(timer))
      })

    it('leaving the loop closes the connection: the server sees the client go', async () => {
      const url = await start(endless)
      const seen: string[] = []
      for await (const e of readEvents(`${url}/feed`, { events: chat })) {
        seen.push(e.event)
        if (seen.length === 2) break
      }
      await closed(open!)
      expect(seen).toEqual(['token', 'token'])
    })

    it('aborting the signal stops the iteration with its reason and closes the connection', async () => {
      const url = await start(endless)
      const controller = new AbortController()
      const seen: string[] = []
      const error = await rejection(
        (async () => {
          for await (const e of readEvents(`${url}/feed`, { signal: controller.signal })) {
            seen.push(e.event)
            if (seen.length === 2) controller.abort()
          }
        })(),
      )
      expect((error as Error).name).toBe('AbortError')
      await closed(open!)
    })

    it('a server that never sends a byte is stopped by a timeout signal', async () => {
      const url = await start((app) =>
        app.get('/feed', (_req, res) => {
          open = res
          sseHead(res)
        }),
      )
      const error = await rejection(
        collect(readEvents(`${url}/feed`, { signal: AbortSignal.timeout(100) })),
      )
      expect((error as Error).name).toBe('TimeoutError')
      await closed(open!)
    })

    it('an abort during the wait before a reconnection stops it', async () => {
      let requests = 0
      const url = await start((app) =>
        app.get('/feed', (_req, res) => {
          requests++
          sseHead(res, 10_000)
          res.end()
        }),
      )
      const started = performance.now()
      const error = await rejection(
        collect(readEvents(`${url}/feed`, { signal: AbortSignal.timeout(100) })),
      )
      expect((error as Error).name).toBe('TimeoutError')
      expect(performance.now() - started).toBeLessThan(2000)
      expect(requests).toBe(1)
    })

    it('a signal aborted before the call fetches nothing', async () => {
      let requests = 0
      const url = await start((app) => app.get('/feed', () => void requests++))
      const error = await rejection(
        collect(readEvents(`${url}/feed`, { signal: AbortSignal.abort() })),
      )
      expect((error as Error).name).toBe('AbortError')
      expect(requests).toBe(0)
    })
  })
})
