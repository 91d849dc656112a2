import type { ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import type { AnyRoute } from '../../../src/runtime/pipeline/route-types.js'
import { listen } from '../../../src/testing/fuzz/send-request.js'
import { streamChecks, streamProblem, timedOut } from '../../../src/testing/fuzz/stream-check.js'

// The fuzzer's bounded reader over a real socket, and the checks of what it read.

type Write = (res: ServerResponse) => void

const opened: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const l of opened.splice(0)) await l.close()
})

// A server whose one route runs `handler`; `closes` counts the answers whose client went away.
async function serve(handler: Write, every?: Write) {
  const seen = { closes: 0 }
  const listener = await listen(((_req: unknown, res: ServerResponse) => {
    let timer: NodeJS.Timeout | undefined
    res.on('close', () => {
      clearInterval(timer)
      seen.closes++
    })
    handler(res)
    if (every) timer = setInterval(() => every(res), 2)
  }) as never)
  opened.push(listener)
  return { listener, seen }
}

// An answer of `type` that writes `item` every 2 ms until the client goes.
const endless = (type: string, item: string): [Write, Write] => [
  (res) => res.writeHead(200, { 'content-type': type }),
  (res) => res.write(item),
]

describe('the bounded reader', () => {
  it('reads an endless SSE stream up to the events bound, then closes the connection', async () => {
    const { listener, seen } = await serve(
      ...endless('text/event-stream', 'event: tick\ndata: {"n":1}\n\n'),
    )
    const answer = await listener.send('GET', '/', {}, undefined, { events: 5, ms: 5000 })
    expect(answer.stream?.stop).toBe('events')
    expect(answer.stream?.items).toHaveLength(5)
    expect(answer.stream?.items[0]).toEqual({ event: 'tick', data: '{"n":1}' })
    await expect.poll(() => seen.closes).toBe(1)
  })

  it('cuts a silent stream at the time bound', async () => {
    const { listener, seen } = await serve(...endless('application/x-ndjson', ''))
    const started = Date.now()
    const answer = await listener.send('GET', '/', {}, undefined, { events: 5, ms: 100 })
    expect(Date.now() - started).toBeLessThan(2000)
    expect(answer.stream).toEqual({ items: [], stop: 'time' })
    await expect.poll(() => seen.closes).toBe(1)
  })

  it('reads an NDJSON stream to its end, its last line without a line end included', async () => {
    const { listener } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' })
      res.write('{"id":1}\r\n\n{"id":')
      res.end('2}')
    })
    const answer = await listener.send('GET', '/', {}, undefined, { events: 5, ms: 1000 })
    expect(answer.stream).toEqual({
      items: [{ data: '{"id":1}' }, { data: '{"id":2}' }],
      stop: 'end',
    })
    expect(answer.text).toBe('{"id":1}\r\n\n{"id":2}')
  })

  it('says the server cut a stream off, and reads a JSON answer of a streaming route as text', async () => {
    const { listener } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: {}\n\n')
      setTimeout(() => res.socket?.destroy(), 20)
    })
    const cut = await listener.send('GET', '/', {}, undefined, { events: 5, ms: 1000 })
    expect(cut.stream).toEqual({ items: [{ event: 'message', data: '{}' }], stop: 'aborted' })
    const json = await serve((res) => {
      res.writeHead(422, { 'content-type': 'application/json' })
      res.end('{"success":false}')
    })
    const refused = await json.listener.send('GET', '/', {}, undefined, { events: 5, ms: 1000 })
    expect(refused).toMatchObject({ status: 422, text: '{"success":false}' })
    expect(refused.stream).toBeUndefined()
  })
})

describe('streamProblem', () => {
  const route = {
    events: { message: z.object({ n: z.number() }), done: z.object({}) },
  } satisfies AnyRoute
  const checks = streamChecks(route)!
  const answer = (...items: { event: string; data: string }[]) => ({
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8' },
    text: '',
    stream: { items, stop: 'end' as const },
  })

  it('takes an event without a name as `message`, and names no event name that is not a name', () => {
    expect(streamProblem(answer({ event: 'message', data: '{"n":1}' }), checks)).toBeUndefined()
    expect(streamProblem(answer({ event: 'a b\u2028<x>', data: '{}' }), checks)).toBe(
      "answered 200 with an event whose name the route's events do not declare (message, done)",
    )
    const error = { event: 'error', data: '{"code":"x y","detail":"secret"}' }
    expect(streamProblem(answer(error), checks)).toBe(
      'answered 200 with a stream that ended in an error event (no code)',
    )
  })

  it('takes a HANDLER_TIMEOUT error end only as the last event of a route with a time limit', () => {
    const limited = streamChecks(route, true)!
    const timeout = {
      event: 'error',
      data: '{"success":false,"message":"x","error":{"code":"HANDLER_TIMEOUT"}}',
    }
    const tick = { event: 'message', data: '{"n":1}' }
    expect(streamProblem(answer(tick, timeout), limited)).toBeUndefined()
    expect(timedOut(answer(tick, timeout).stream, limited)).toBe(true)
    expect(streamProblem(answer(tick, timeout), checks)).toBe(
      'answered 200 with a stream that ended in an error event (HANDLER_TIMEOUT)',
    )
    expect(timedOut(answer(tick, timeout).stream, checks)).toBe(false)
    // Another code, or read before the end: not the route's limit.
    const other = { ...timeout, data: timeout.data.replace('HANDLER_TIMEOUT', 'INTERNAL_ERROR') }
    expect(streamProblem(answer(other), limited)).toBe(
      'answered 200 with a stream that ended in an error event (INTERNAL_ERROR)',
    )
    expect(timedOut({ items: [timeout], stop: 'events' }, limited)).toBe(false)
  })

  it('holds an NDJSON line that is an item with a `code` to its schema, not as an error line', () => {
    const ndjson = streamChecks({ stream: z.object({ code: z.string() }) })!
    const lines = (...data: string[]) => ({
      ...answer(),
      headers: { 'content-type': 'application/x-ndjson' },
      stream: { items: data.map((d) => ({ data: d })), stop: 'events' as const },
    })
    expect(streamProblem(lines('{"code":"A"}'), ndjson)).toBeUndefined()
    expect(streamProblem(lines('{"code":1}'), ndjson)).toBe(
      'answered 200 with a line its schema refuses: stream.code must be string',
    )
    expect(streamProblem(lines('{"error":{"code":"RATE"}}'), ndjson)).toBe(
      'answered 200 with a stream that ended in an error line (RATE)',
    )
  })
})
