import type { IncomingMessage, ServerResponse } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import {
  configureLogger,
  errorHandler,
  handle,
  type ShapeguardConfig,
  shapeguard,
} from '../../src/index.js'
import { type FuzzError, type FuzzRoutesOptions, fuzzRoutes } from '../../src/testing/index.js'
import { type Express, hosts } from '../support/e2e.js'

// fuzzRoutes reads a streaming route's answers as a stream, within bounds, and checks each event.
// The handlers write the wire format by hand (res.writeHead, res.write), which lets them plant
// what res.sse()/res.ndjson() would never send.

const TOKEN = 'tok-stream-1'
const auth = {
  bearer: (token: string) => (token === TOKEN ? { id: 1 } : undefined),
} satisfies ShapeguardConfig['auth']

const Token = z.object({ text: z.string() })
const Done = z.object({ tokens: z.number().int() })
const Row = z.object({ id: z.number().int(), name: z.string() })
const query = z.object({ n: z.coerce.number().int().min(1).max(3) })

type Plant =
  | 'undeclared field'
  | 'undeclared event'
  | 'schema'
  | 'not JSON'
  | 'content type'
  | 'error end'
  | 'cut'
  | 'endless'
  | 'silent'

const SSE = 'text/event-stream; charset=utf-8'
const NDJSON = 'application/x-ndjson'

function sse(res: ServerResponse, event: string, data: unknown) {
  res.write(`event: ${event}\ndata: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`)
}

// An endless stream: one event (or heartbeat) every few ms until the client goes.
function forever(req: IncomingMessage, res: ServerResponse, write: () => void, ms: number): void {
  const timer = setInterval(write, ms)
  req.on('close', () => clearInterval(timer))
  res.on('close', () => clearInterval(timer))
}

const errorBody = { success: false, message: 'x', error: { code: 'INTERNAL_ERROR', message: 'x' } }

type Req = IncomingMessage & { query: { n: number } }

function chat(plant: Plant | undefined) {
  return (req: Req, res: ServerResponse) => {
    res.writeHead(200, {
      'content-type': plant === 'content type' ? 'application/json' : SSE,
      'cache-control': 'no-cache',
    })
    if (plant === 'endless') forever(req, res, () => sse(res, 'token', { text: 'a' }), 2)
    else if (plant === 'silent') forever(req, res, () => res.write(': ping\n\n'), 20)
    else tokens(req.query.n, plant, res)
  }
}

function tokens(n: number, plant: Plant | undefined, res: ServerResponse) {
  res.write('retry: 1000\n\n: a comment\n\n')
  for (let i = 0; i < n; i++) sse(res, 'token', { text: `t${i}` })
  if (plant === 'undeclared field') sse(res, 'token', { text: 'x', secret: 'hash' })
  if (plant === 'undeclared event') sse(res, 'debug', { text: 'x' })
  if (plant === 'schema') sse(res, 'done', { tokens: 'many' })
  if (plant === 'not JSON') sse(res, 'token', '{text: x}')
  // A crash after the first bytes: the connection closes without the answer's end.
  if (plant === 'cut') return void setTimeout(() => res.socket?.destroy(), 20)
  if (plant === 'error end') sse(res, 'error', errorBody)
  else sse(res, 'done', { tokens: n })
  res.end()
}

function rows(plant: Plant | undefined) {
  return (req: Req, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': plant === 'content type' ? 'text/plain' : NDJSON })
    const line = (value: unknown) => res.write(`${JSON.stringify(value)}\n`)
    if (plant === 'endless') return forever(req, res, () => line({ id: 1, name: 'a' }), 2)
    for (let i = 0; i < req.query.n; i++) line({ id: i, name: `r${i}` })
    if (plant === 'undeclared field') line({ id: 9, name: 'x', pw: 1 })
    if (plant === 'schema') line({ id: 'nine', name: 'x' })
    if (plant === 'not JSON') res.write('{id: 9}\n')
    if (plant === 'error end') line(errorBody)
    // The last line without a line end: still a line.
    res.end(JSON.stringify({ id: 99, name: 'last' }))
  }
}

function streamingApp(
  express: Express,
  plant?: Plant,
  route: 'sse' | 'ndjson' = 'sse',
  statuses: number[] = [],
) {
  const app = express()
  app.use((_req, res, next) => {
    res.on('close', () => statuses.push(res.statusCode))
    next()
  })
  app.use(shapeguard({ auth }))
  if (route === 'sse')
    app.get(
      '/chat',
      ...handle({ query, security: ['bearer'], events: { token: Token, done: Done } }, chat(plant)),
    )
  else app.get('/rows', ...handle({ query, security: [], stream: Row }, rows(plant)))
  app.use(errorHandler())
  return app
}

const runs = 12
const options: FuzzRoutesOptions = { runs, seed: 3, auth: { bearer: TOKEN } }

async function failureOf(app: unknown, more: FuzzRoutesOptions = {}) {
  const error = (await fuzzRoutes(app, { ...options, ...more }).then(
    () => undefined,
    (e: unknown) => e,
  )) as FuzzError
  expect(error).toBeInstanceOf(Error)
  expect(error.report.failures).toHaveLength(1)
  return error.report.failures[0]!
}

beforeAll(() => configureLogger({ silent: true }))
afterAll(() => configureLogger({ silent: true }))

describe.each(hosts)('fuzzRoutes on streaming routes on %s', (_, express) => {
  it('passes a correct SSE and NDJSON stream, with the route credentials and invalid requests answered 4xx first', async () => {
    const statuses: number[] = []
    const report = await fuzzRoutes(streamingApp(express, undefined, 'sse', statuses), options)
    expect(report.failures).toEqual([])
    // The phases' requests and the ignored_auth check's two.
    const [chat] = report.routes
    expect([chat!.route, chat!.phases.random, chat!.notes]).toEqual(['GET /chat', runs, []])
    const sent = Object.values(chat!.phases).reduce((n, k) => n + k, 0)
    expect(chat!.requests).toBe(sent + 2)
    // Streams to valid requests; 401 without the token, 422 for a query out of range, 400 for a
    // hostile one: JSON answers before any stream, read as such.
    expect(new Set(statuses)).toEqual(new Set([200, 400, 401, 422]))
    const ndjson = await fuzzRoutes(streamingApp(express, undefined, 'ndjson'), options)
    expect(ndjson.failures).toEqual([])
    expect(ndjson.routes[0]!.phases.random).toBe(runs)
  }, 30_000)

  it.each([
    ['undeclared field', 'answered 200 with events.token.data.secret, which the event'],
    [
      'undeclared event',
      "answered 200 with an event named debug, which the route's events do not declare (token, done)",
    ],
    [
      'schema',
      'answered 200 with an event its schema refuses: events.done.data.tokens must be integer',
    ],
    ['not JSON', 'answered 200 with events.token.data that is not JSON'],
    ['content type', 'answered 200 without the Content-Type text/event-stream of its events'],
    ['error end', 'answered 200 with a stream that ended in an error event (INTERNAL_ERROR)'],
    ['cut', 'answered 200 with a stream the server cut off before its end'],
  ] as const)(
    'finds an SSE stream with %s',
    async (plant, invariant) => {
      const failure = await failureOf(streamingApp(express, plant))
      expect(failure.route).toBe('GET /chat')
      expect(failure.invariant).toContain(invariant)
      expect(failure.invariant).not.toContain('hash')
      expect(failure.request.kind).toBe('valid')
      expect(failure.curl).toMatch(
        /^curl -N --globoff -X GET 'http:\/\/localhost:3000\/chat\?n=1' -H 'accept: text\/event-stream' -H 'authorization: Bearer \*\*\*'$/,
      )
    },
    30_000,
  )

  it.each([
    ['undeclared field', "answered 200 with stream.pw, which the stream's schema does not declare"],
    ['schema', 'answered 200 with a line its schema refuses: stream.id must be integer'],
    ['not JSON', 'answered 200 with stream that is not JSON'],
    ['content type', 'answered 200 without the Content-Type application/x-ndjson of its stream'],
    ['error end', 'answered 200 with a stream that ended in an error line (INTERNAL_ERROR)'],
  ] as const)(
    'finds an NDJSON stream with %s',
    async (plant, invariant) => {
      const failure = await failureOf(streamingApp(express, plant, 'ndjson'))
      expect(failure.invariant).toBe(invariant)
      expect(failure.curl).toBe(
        "curl -N --globoff -X GET 'http://localhost:3000/rows?n=1' -H 'accept: application/x-ndjson'",
      )
    },
    30_000,
  )

  it('checks streamEvents and streamMs', async () => {
    const app = streamingApp(express)
    await expect(fuzzRoutes(app, { streamEvents: 0 })).rejects.toThrow(
      'fuzzRoutes(): options.streamEvents must be a positive integer',
    )
    await expect(fuzzRoutes(app, { streamMs: 1.5 })).rejects.toThrow(
      'fuzzRoutes(): options.streamMs must be a positive integer (milliseconds)',
    )
    await expect(fuzzRoutes(app, { streamMs: 2 ** 31 })).rejects.toThrow(
      'fuzzRoutes(): options.streamMs must be a positive integer (milliseconds), at most 2147483647',
    )
  })

  it('cuts an endless stream at streamEvents, and a silent one at streamMs, in bounded time', async () => {
    const started = Date.now()
    for (const route of ['sse', 'ndjson'] as const) {
      const report = await fuzzRoutes(streamingApp(express, 'endless', route), options)
      expect(report.failures).toEqual([])
    }
    const silent = await fuzzRoutes(streamingApp(express, 'silent'), {
      ...options,
      streamMs: 100,
      phases: ['random'],
    })
    expect(silent.failures).toEqual([])
    expect(silent.routes[0]?.notes).toEqual([
      expect.stringMatching(
        /^\d+ of 12 streamed answers sent no event within streamMs \(100 ms\): raise it to check their events$/,
      ),
    ])
    // Each of the silent stream's answers is read for 100 ms: not the 10 s a request may take.
    expect(Date.now() - started).toBeLessThan(10_000)
  }, 30_000)
})
