import { afterEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { errorHandler, handle, notFoundHandler, shapeguard } from '../../src/index.js'
import { NdjsonParser, type ServerSentEvent, SseParser } from '../../src/shared/event-stream.js'
import { captureLogger, type Express, hosts } from '../support/e2e.js'
import { type Listening, listen, RawClient } from '../support/streams.js'

// Hostile data through a stream's framing, on both hosts: what a client or a handler puts in a
// value never makes a line the server did not write, and comes back as sent.

/** Strings that end, split or poison an SSE line, or are not valid UTF-16. */
const HOSTILE = [
  'a\rb',
  'a\nb',
  'a\r\nb',
  '\r\n\r\n',
  'a\u0000b',
  'a\u2028b\u2029c',
  '\ud800',
  '\udfff',
  'x\udc00y\ud83d',
  '\ud83d\ude00',
  '\ufeffbom',
  'event: forged\n\ndata: {"forged":true}\n\n',
  'id: 666\r\nretry: 1\r\n\r\n',
  ': comment\rdata: x',
]

/** The fields the server writes: any other start of a line is a forged field. */
const FIELDS = ['event: ', 'data: ', 'id: ', 'retry: ', ':']

const servers: Listening[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

function appOf(express: Express, mount: (app: ReturnType<Express>) => void) {
  const log = captureLogger()
  const app = express()
  app.use(shapeguard({ debug: false, logger: { instance: log } }))
  mount(app)
  app.use(notFoundHandler())
  app.use(errorHandler({ logger: log }))
  return { app, log }
}

async function get(
  app: ReturnType<Express>,
  path: string,
  headers: string[] = [],
): Promise<RawClient> {
  const server = await listen(app)
  servers.push(server)
  const client = new RawClient(server.port, path, { headers })
  await client.head.catch(() => {})
  await client.until(() => client.ended, 5000, 'the end of the stream')
  return client
}

/** The body's lines as the SSE parser splits them (CRLF, CR or LF). */
function linesOf(body: string): string[] {
  return body.split(/\r\n|\r|\n/)
}

function expectOnlyServerFields(body: string): void {
  for (const line of linesOf(body)) {
    if (line === '') continue
    expect(
      FIELDS.some((f) => line.startsWith(f)),
      `a line the server did not write: ${JSON.stringify(line)}`,
    ).toBe(true)
  }
}

/** NUL, U+2028 and U+2029 written raw: JSON escapes the first, the contract the others. */
function rawSpecials(text: string): string[] {
  return ['\u0000', '\u2028', '\u2029'].filter((c) => text.includes(c))
}

function sseEvents(bytes: Buffer): ServerSentEvent[] {
  // fatal: the body must be valid UTF-8 (a lone surrogate written raw would not be)
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  return new SseParser().push(text)
}

describe.each(hosts)('%s', (_, express) => {
  it('frames CR, LF, CRLF, NUL, U+2028/9 and lone surrogates in data and record keys', async () => {
    const Text = z.object({ text: z.string() })
    const Record = z.record(z.string(), z.string())
    const { app, log } = appOf(express, (app) =>
      app.get(
        '/s',
        ...handle({ events: { text: Text, record: Record } }, async (_req, res) => {
          const stream = res.sse({ heartbeat: false })
          for (const text of HOSTILE) {
            await stream.send('text', { text, undeclared: text } as { text: string })
            await stream.send('record', { [text]: text })
          }
          await stream.close()
        }),
      ),
    )
    const client = await get(app, '/s')
    const head = await client.head
    expect(head.status).toBe(200)
    expect(head.headers['content-type']).toBe('text/event-stream; charset=utf-8')
    const body = client.bytes()
    const text = body.toString('utf8')
    expectOnlyServerFields(text)
    // JSON escapes NUL and lone surrogates; the contract escapes U+2028/9 as well
    expect(rawSpecials(text)).toEqual([])
    const events = sseEvents(body)
    expect(events.map((e) => e.event)).toEqual(HOSTILE.flatMap(() => ['text', 'record']))
    expect(events.map((e) => JSON.parse(e.data))).toEqual(
      HOSTILE.flatMap((text) => [{ text }, { [text]: text }]),
    )
    expect(events.every((e) => e.id === '')).toBe(true)
    expect(log.records.filter((r) => r.level === 'error')).toEqual([])
  })

  it('keeps NDJSON one line per item whatever the strings hold', async () => {
    const Item = z.record(z.string(), z.string())
    const { app } = appOf(express, (app) =>
      app.get(
        '/n',
        ...handle({ stream: Item }, async (_req, res) => {
          await res.ndjson(HOSTILE.map((text) => ({ [text]: text })))
        }),
      ),
    )
    const client = await get(app, '/n')
    expect((await client.head).headers['content-type']).toMatch(/^application\/x-ndjson/)
    const text = new TextDecoder('utf-8', { fatal: true }).decode(client.bytes())
    expect(rawSpecials(text)).toEqual([])
    // JSON.stringify never writes a raw CR or LF: one line per item, split on LF alone
    const parser = new NdjsonParser()
    const lines = [...parser.push(text), ...parser.end()]
    expect(lines).toEqual(text.split('\n').filter((l) => l !== ''))
    expect(lines.map((l) => JSON.parse(l))).toEqual(HOSTILE.map((t) => ({ [t]: t })))
  })

  it('refuses an event ID with CR, LF or NUL and forges nothing', async () => {
    const outcomes: unknown[] = []
    const { app } = appOf(express, (app) =>
      app.get(
        '/s',
        ...handle({ events: { tick: z.object({ n: z.number() }) } }, async (_req, res) => {
          const stream = res.sse({ heartbeat: false })
          await stream.send('tick', { n: 0 }, { id: 'clean' })
          for (const id of ['1\nevent: forged', '2\r\ndata: {}', '3\rretry: 1', '4\u0000']) {
            try {
              await stream.send('tick', { n: 1 }, { id })
              outcomes.push('sent')
            } catch (error) {
              outcomes.push(error)
            }
          }
          await stream.close().catch(() => {})
        }),
      ),
    )
    const client = await get(app, '/s')
    const text = client.text()
    expectOnlyServerFields(text)
    expect(text).not.toContain('forged')
    expect(outcomes).toHaveLength(4)
    for (const outcome of outcomes) expect(outcome).toBeInstanceOf(TypeError)
    // No event with a refused ID went out, and the ID never carried a control character.
    const events = new SseParser().push(text)
    expect(events.filter((e) => e.event === 'tick')).toEqual([
      { event: 'tick', data: '{"n":0}', id: 'clean' },
    ])
  })

  it('refuses an event name the route does not declare, CR and LF in it included', async () => {
    const outcomes: unknown[] = []
    const { app } = appOf(express, (app) =>
      app.get(
        '/s',
        ...handle({ events: { tick: z.object({ n: z.number() }) } }, async (_req, res) => {
          const stream = res.sse({ heartbeat: false })
          for (const name of ['tick\nevent: forged', 'tick\r\ndata: {}', 'other']) {
            try {
              await stream.send(name as 'tick', { n: 1 })
              outcomes.push('sent')
            } catch (error) {
              outcomes.push(error)
            }
          }
          await stream.close().catch(() => {})
        }),
      ),
    )
    const client = await get(app, '/s')
    const text = client.text()
    expectOnlyServerFields(text)
    expect(text).not.toContain('forged')
    expect(outcomes.every((o) => o instanceof Error)).toBe(true)
  })

  describe('Last-Event-ID', () => {
    function echo() {
      const seen: Array<string | undefined> = []
      const { app } = appOf(express, (app) =>
        app.get(
          '/s',
          ...handle(
            { events: { seen: z.object({ id: z.string().optional() }) } },
            async (req, res) => {
              seen.push(req.lastEventId)
              const stream = res.sse({ heartbeat: false })
              await stream.send('seen', { id: req.lastEventId })
              await stream.close()
            },
          ),
        ),
      )
      return { app, seen }
    }

    it('reaches the handler when clean', async () => {
      const { app, seen } = echo()
      const client = await get(app, '/s', ['Last-Event-ID: 41'])
      expect((await client.head).status).toBe(200)
      expect(seen).toEqual(['41'])
      expect(sseEvents(client.bytes())).toEqual([{ event: 'seen', data: '{"id":"41"}', id: '' }])
    })

    it('of 1 MB: a 4xx or an undefined ID, never a crash', async () => {
      const { app, seen } = echo()
      const client = await get(app, '/s', [`Last-Event-ID: ${'7'.repeat(1024 * 1024)}`])
      const head = await client.head.catch(() => undefined)
      // Node's header limit (16 KB) answers 431 before any handler
      if (head === undefined || head.status !== 200) {
        expect(head === undefined || (head.status >= 400 && head.status < 500)).toBe(true)
        expect(seen).toEqual([])
      } else expect(seen).toEqual([undefined])
      // the server still answers
      const again = await get(app, '/s', ['Last-Event-ID: 2'])
      expect((await again.head).status).toBe(200)
    })

    it('of 8 KB (under the header limit): the value or undefined', async () => {
      const { app, seen } = echo()
      const long = 'x'.repeat(8 * 1024)
      const client = await get(app, '/s', [`Last-Event-ID: ${long}`])
      expect((await client.head).status).toBe(200)
      expect([long, undefined]).toContain(seen[0])
    })

    it.each([
      ['CRLF and a forged field', 'Last-Event-ID: 5\r\nevent: forged'],
      ['a bare CR', 'Last-Event-ID: 5\revent: forged'],
      ['a bare LF', 'Last-Event-ID: 5\nevent: forged'],
      ['a folded line', 'Last-Event-ID: 5\r\n event: forged'],
      ['NUL', 'Last-Event-ID: 5\u0000x'],
      ['two headers', 'Last-Event-ID: 1\r\nLast-Event-ID: 2'],
    ])('with %s: a 4xx, or an ID without it, and nothing forged', async (_, line) => {
      const { app, seen } = echo()
      const client = await get(app, '/s', [line])
      const head = await client.head.catch(() => undefined)
      if (head === undefined || head.status !== 200) {
        expect(head === undefined || (head.status >= 400 && head.status < 500)).toBe(true)
        expect(seen).toEqual([])
        return
      }
      expect(seen).toHaveLength(1)
      const [id] = seen
      expect(id === undefined || !['\r', '\n', '\u0000'].some((c) => id.includes(c))).toBe(true)
      const text = client.text()
      expectOnlyServerFields(text)
      expect(linesOf(text).some((l) => l.startsWith('event: forged'))).toBe(false)
      expect(sseEvents(client.bytes()).map((e) => e.event)).toEqual(['seen'])
    })
  })
})
