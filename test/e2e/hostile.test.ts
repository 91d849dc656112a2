import { Writable } from 'node:stream'
import type { RequestHandler } from 'express'
import fc from 'fast-check'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as yup from 'yup'
import * as z from 'zod'
import { valibotAdapter } from '../../src/adapters/valibot/index.js'
import { yupAdapter } from '../../src/adapters/yup/index.js'
import {
  asyncHandler,
  errorHandler,
  handle,
  logger,
  notFoundHandler,
  type ShapeguardConfig,
  shapeguard,
} from '../../src/index.js'
import { sanitizeString } from '../../src/runtime/guards/sanitize.js'
import { resetLogger } from '../../src/runtime/logging/logger.js'
import type { LoggerOptions } from '../../src/runtime/logging/options.js'
import { requestLogger } from '../../src/runtime/logging/request-logger.js'
import type { BackendDeps } from '../../src/runtime/logging/resolve-backend.js'
import type { LogStream } from '../../src/runtime/logging/types.js'
import { captureLogger, type Express, hosts } from '../support/e2e.js'
import { type Served, serve } from '../support/serve.js'

// Hostile requests through real apps, many per property. `npm run fuzz` sends 10^5 requests in
// all (FUZZ_REQUESTS=100000); `npm test` sends a thousand.
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 1000)
/** Runs of one property on one host: five properties, two hosts. */
const RUNS = Math.max(20, Math.ceil(REQUESTS / 10))
const TIMEOUT = Math.max(30_000, RUNS * 40)
/** Stands in every value a client or a handler sends: it must never reach a log or an answer. */
const MARK = 'Zq9LEAK'
const FALLBACK = 'Something went wrong'

// The request logger of every app in this file, mounted before its shapeguard() (which then
// leaves the request to it): each property puts in its own, writing where it says.
let logRequests: RequestHandler = (_req, _res, next) => next()

function production(express: Express, config: ShapeguardConfig = {}) {
  const app = express()
  app.use((req, res, next) => logRequests(req, res, next))
  app.use(express.json())
  app.use(shapeguard({ debug: false, ...config }))
  return app
}

function finish(app: ReturnType<Express>, log = captureLogger()) {
  app.use(notFoundHandler())
  app.use(errorHandler({ logger: log }))
  return log
}

afterAll(() => resetLogger())

/** Logs every app's requests (and their handlers' lines) with `options`, through `deps`. */
function logWith(options: LoggerOptions, deps: BackendDeps): void {
  logRequests = requestLogger(options, false, deps)
}

/** Makes every app's logging write JSON (or pretty) lines into an array, from now on. */
function captureLines(options: LoggerOptions, pretty = false): string[] {
  const lines: string[] = []
  const stream: LogStream = { write: (line: string) => lines.push(line) > 0 }
  logWith({ ...options, pretty }, { stream, backend: 'console' })
  return lines
}

describe.each(hosts)('percent-encoded paths on %s', (_, express) => {
  const app = production(express)
  app.get(
    '/users/:id',
    ...handle({ params: z.object({ id: z.string() }) }, (req, res) =>
      res.ok({ data: { id: req.params.id } }),
    ),
  )
  app.get('/plain/:id', (req, res) => res.json({ id: req.params.id }))
  finish(app)
  let served: Served
  let lines: string[]
  beforeAll(async () => {
    served = await serve(app)
    lines = captureLines({ logAllRequests: true })
  })
  afterAll(() => served.close())

  const piece = fc.oneof(
    fc.constantFrom('a', 'Z', '~', '%', '%Z', '%ZZ', '%E0%80%80', '%C0%AF', '%FF', '%2F', '%25'),
    fc.constantFrom(
      '%00',
      '%0A',
      '%C3%A9',
      '%F0%9F%98%80',
      '%ED%A0%80',
      '%E2%80%A8',
      '%F4%90%80%80',
    ),
    fc
      .string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFg'), maxLength: 2 })
      .map((h) => `%${h}`),
  )
  const segment = fc.array(piece, { minLength: 1, maxLength: 6 }).map((p) => p.join(''))

  it(
    'answers 400 in the envelope to a malformed segment, never 5xx, never an error log',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('/users/', '/plain/'),
          segment,
          fc.option(segment, { nil: undefined }),
          async (route, id, query) => {
            const path = route + id + (query === undefined ? '' : `?q=${query}`)
            const answer = await served.send('GET', path)
            let decoded: string | undefined
            try {
              decoded = decodeURIComponent(id)
            } catch {
              decoded = undefined
            }
            const body = JSON.parse(answer.text)
            if (decoded === undefined) {
              expect(answer.status).toBe(400)
              expect(body.error.code).toBe('BAD_REQUEST')
              expect(answer.text).not.toContain(id)
            } else {
              expect(answer.status).toBe(200)
              // Guarded params lose null bytes and invisible characters; plain ones do not.
              if (route === '/users/') expect(body.data.id).toBe(sanitizeString(decoded))
              else expect(body.id).toBe(decoded)
            }
          },
        ),
        { numRuns: RUNS },
      )
      const errors = lines.filter((line) => JSON.parse(line).level === 'error')
      expect(errors).toEqual([])
    },
    TIMEOUT,
  )
})

/** What a handler might throw instead of an Error; each one carries MARK somewhere. */
const thrownValue = (() => {
  const text = fc.string({ maxLength: 4 }).map((s) => s + MARK)
  const field = fc.constantFrom(
    'message',
    'code',
    'type',
    'status',
    'statusCode',
    'expose',
    'name',
    'stack',
    'details',
    'cause',
    'isOperational',
  )
  const scalar = fc.oneof(
    text,
    fc.constantFrom(400, 404, 413, 415, 500, true, false, null, undefined, 0),
    fc.constantFrom(
      'entity.parse.failed',
      'charset.unsupported',
      'entity.too.large',
      'constructor',
    ),
  )
  const entries = fc
    .array(fc.tuple(field, scalar), { maxLength: 6 })
    .map((list) => [...list, ['message', MARK]] as Array<[string, unknown]>)
  // Throws for every key a handler's error path could read; fast-check's own symbol look-ups
  // (its clone marker) are answered.
  const trap = (_target: object, key: string | symbol): undefined => {
    if (typeof key === 'symbol') return undefined
    throw new Error(MARK)
  }
  const traps: ProxyHandler<object> = {
    get: trap,
    has: (target, key) => trap(target, key) !== undefined,
    getOwnPropertyDescriptor: trap,
    ownKeys: () => trap({}, 'ownKeys') ?? [],
    getPrototypeOf: () => trap({}, 'getPrototypeOf') ?? null,
  }
  return fc.oneof(
    text,
    fc.constantFrom(42, 0, null, undefined, true, 10n, Symbol(MARK)),
    entries.map((e) => Object.fromEntries(e)),
    entries.map((e) => Object.assign(Object.create(null), Object.fromEntries(e))),
    entries.map((e) => Object.freeze(Object.fromEntries(e))),
    entries.map((e) => [MARK, Object.fromEntries(e)]),
    entries.map((e) => new Proxy(Object.fromEntries(e), traps)),
    fc.constant(0).map(() =>
      Object.defineProperty({ status: 400 }, 'message', {
        get: () => trap({}, 'message'),
        enumerable: true,
      }),
    ),
    text.map(
      (m) =>
        new (class Thrown {
          get message() {
            return m
          }
          get status() {
            return 400
          }
          expose = true
        })(),
    ),
  )
})()

describe.each(hosts)('non-Error throws on %s', (_, express) => {
  let current: unknown
  const app = production(express)
  app.get('/sync', () => {
    throw current
  })
  app.get(
    '/async',
    asyncHandler(async () => {
      throw current
    }),
  )
  app.get('/next', (_req, _res, next) => next(current))
  finish(app)
  let served: Served
  let lines: string[]
  beforeAll(async () => {
    served = await serve(app)
    lines = captureLines({})
  })
  afterAll(() => served.close())

  it(
    'gives the generic 500 in production and never sends any of the value',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          thrownValue,
          fc.constantFrom('/sync', '/async', '/next'),
          async (value, path) => {
            current = value
            const answer = await served.send('GET', path)
            // Express takes a falsy value thrown or passed to `next()` for no error at all and
            // moves on to the 404; asyncHandler forwards every rejection as an error.
            if (!value && path !== '/async') {
              expect(answer.status).toBe(404)
              return
            }
            expect(answer.status).toBe(500)
            expect(JSON.parse(answer.text)).toEqual({
              success: false,
              message: FALLBACK,
              error: { code: 'INTERNAL_ERROR', message: FALLBACK, details: null },
            })
          },
        ),
        { numRuns: RUNS },
      )
      // Each one is logged for the developer as a programmer error, one JSON record per line
      // (what was thrown is the app's own, so its text may be in the log; never in the answer).
      const records = lines.map((line) => JSON.parse(line))
      expect(records.filter((r) => r.status === 500).length).toBeGreaterThan(0)
      for (const r of records.filter((r) => r.status === 500)) {
        expect(r).toMatchObject({ level: 'error', code: 'INTERNAL_ERROR' })
      }
    },
    TIMEOUT,
  )
})

type Failure = 'throws' | 'errors' | 'destroyed'

/** A log stream that works for `healthy` writes, then fails the way a closed pipe does. */
function failingStream(failure: Failure, healthy: number): LogStream {
  let writes = 0
  const epipe = () => Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })
  const stream = new Writable({
    write(_chunk, _encoding, callback) {
      callback(writes++ < healthy ? null : epipe())
    },
  })
  if (failure === 'destroyed') stream.destroy()
  if (failure === 'throws') {
    const write = stream.write.bind(stream)
    stream.write = ((chunk: unknown) => {
      if (writes++ >= healthy) throw epipe()
      return write(chunk as string)
    }) as typeof stream.write
  }
  return stream as unknown as LogStream
}

describe.each(hosts)('a log stream that breaks on %s', (_, express) => {
  const options: LoggerOptions = { logAllRequests: true, logRequestBody: true }
  const app = production(express, { logger: options })
  app.get('/ok', (_req, res) => res.ok({ data: { ok: true } }))
  app.get('/boom', () => {
    throw new Error('database down')
  })
  app.use(notFoundHandler())
  app.use(errorHandler())
  let served: Served
  beforeAll(async () => {
    served = await serve(app)
  })
  afterAll(() => served.close())

  it(
    'never stops the server from answering, whichever backend writes',
    async () => {
      const paths = { '/ok': 200, '/boom': 500, '/missing': 404 } as const
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('console', 'pino', 'winston' as const),
          fc.boolean(),
          fc.constantFrom<Failure>('throws', 'errors', 'destroyed'),
          fc.integer({ min: 0, max: 3 }),
          fc.array(fc.constantFrom(...(Object.keys(paths) as Array<keyof typeof paths>)), {
            minLength: 1,
            maxLength: 3,
          }),
          async (backend, pretty, failure, healthy, sequence) => {
            logWith({ ...options, pretty }, { stream: failingStream(failure, healthy), backend })
            for (const path of sequence) {
              expect((await served.send('GET', path)).status).toBe(paths[path])
            }
            logger.error({ path: '/direct' }, 'written straight to the broken stream')
            await new Promise((resolve) => setImmediate(resolve))
          },
        ),
        { numRuns: Math.ceil(RUNS / 2) },
      )
    },
    TIMEOUT,
  )
})

describe.each(hosts)('yup and valibot response schemas on %s', (_, express) => {
  const yupUser = yup.object({
    id: yup.number().required(),
    profile: yup
      .object({
        name: yup.string().required(),
        tags: yup.array(yup.object({ label: yup.string().required() })).required(),
      })
      .required(),
  })
  const valibotUser = v.object({
    id: v.number(),
    profile: v.object({ name: v.string(), tags: v.array(v.object({ label: v.string() })) }),
  })
  let current: unknown
  const app = production(express)
  app.get(
    '/yup',
    ...handle({ response: yupAdapter(yupUser) }, (_req, res) => res.ok({ data: current as never })),
  )
  app.get(
    '/valibot',
    ...handle({ response: valibotAdapter(valibotUser) }, (_req, res) =>
      res.ok({ data: current as never }),
    ),
  )
  finish(app)
  let served: Served
  beforeAll(async () => {
    served = await serve(app)
    captureLines({})
  })
  afterAll(() => served.close())

  /** Undeclared keys holding MARK, merged into an object of the declared ones. */
  const extra = (declared: string[]) =>
    fc.dictionary(
      fc.string({ minLength: 1, maxLength: 6 }).filter((k) => !declared.includes(k)),
      fc.oneof(fc.constant(MARK), fc.record({ nested: fc.constant(MARK) }), fc.constant([MARK])),
      { maxKeys: 3 },
    )
  const label = fc.string({ minLength: 1, maxLength: 5 }).filter((s) => !s.includes(MARK))
  const clean = fc.record({
    id: fc.integer(),
    profile: fc.record({ name: label, tags: fc.array(fc.record({ label }), { maxLength: 3 }) }),
  })
  const dirty = clean.chain((user) =>
    fc
      .tuple(
        extra(['id', 'profile']),
        extra(['name', 'tags']),
        fc.array(extra(['label']), { minLength: user.profile.tags.length, maxLength: 3 }),
      )
      .map(([top, profile, tags]) => ({
        clean: user,
        data: {
          ...top,
          ...user,
          profile: {
            ...profile,
            ...user.profile,
            tags: user.profile.tags.map((t, i) => ({ ...tags[i], ...t })),
          },
        },
      })),
  )

  it(
    'sends only the declared fields, at every depth',
    async () => {
      await fc.assert(
        fc.asyncProperty(dirty, fc.constantFrom('/yup', '/valibot'), async (user, path) => {
          current = JSON.parse(JSON.stringify(user.data))
          const answer = await served.send('GET', path)
          expect(answer.status).toBe(200)
          expect(answer.text).not.toContain(MARK)
          expect(JSON.parse(answer.text).data).toEqual(user.clean)
        }),
        { numRuns: RUNS },
      )
    },
    TIMEOUT,
  )
})

/** Secret key names as people spell them: any case, joined by nothing, `_`, `-` or `.`. */
const secretKey = (() => {
  const words = fc.constantFrom(
    ['password'],
    ['passwd'],
    ['new', 'password'],
    ['password', 'confirmation'],
    ['password', 'hash'],
    ['secret'],
    ['client', 'secret'],
    ['token'],
    ['access', 'token'],
    ['refresh', 'token'],
    ['id', 'token'],
    ['api', 'key'],
    ['apikey'],
    ['private', 'key'],
    ['authorization'],
    ['cookie'],
    ['set', 'cookie'],
    ['card', 'number'],
    ['cvv'],
    ['ssn'],
  )
  const cased = (word: string, mode: number, first: boolean) =>
    mode === 0
      ? word
      : mode === 1
        ? word.toUpperCase()
        : first
          ? word
          : word[0]!.toUpperCase() + word.slice(1)
  return fc
    .tuple(words, fc.constantFrom('', '_', '-', '.'), fc.integer({ min: 0, max: 2 }))
    .map(([list, sep, mode]) => list.map((w, i) => cased(w, mode, i === 0)).join(sep))
})()

describe.each(hosts)('secrets under any spelling on %s', (_, express) => {
  const options: LoggerOptions = {
    logAllRequests: true,
    logRequestBody: true,
    logResponseBody: true,
    level: 'debug',
  }
  const app = production(express, { logger: options })
  app.post('/echo', (req, res) => {
    logger.info({ headers: req.headers, body: req.body, query: req.query }, 'echo')
    res.ok({ data: req.body })
  })
  finish(app)
  let served: Served
  beforeAll(async () => {
    served = await serve(app)
  })
  afterAll(() => served.close())

  const header = fc.constantFrom(
    (k: string) => [k, `${MARK}-${k}`],
    () => ['authorization', `Bearer ${MARK}`],
    () => ['cookie', `sid=${MARK}`],
  )

  it(
    'never writes a secret into a log line, in JSON or pretty mode',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(secretKey, { minLength: 1, maxLength: 3 }),
          fc.integer({ min: 0, max: 3 }),
          header,
          secretKey,
          fc.boolean(),
          async (keys, depth, makeHeader, headerKey, pretty) => {
            const lines = captureLines(options, pretty)
            let body: Record<string, unknown> = Object.fromEntries(keys.map((k) => [k, MARK]))
            for (let i = 0; i < depth; i++) body = { level: body, list: [body] }
            const [name, value] = makeHeader(headerKey.replace(/\./g, '-'))
            const answer = await served.send(
              'POST',
              `/echo?${encodeURIComponent(keys[0]!)}=${MARK}`,
              {
                headers: { 'content-type': 'application/json', [name!]: value! },
                body: JSON.stringify(body),
              },
            )
            expect(answer.status).toBe(201)
            expect(lines.length).toBeGreaterThan(0)
            expect(lines.join('')).not.toContain(MARK)
          },
        ),
        { numRuns: RUNS },
      )
    },
    TIMEOUT,
  )
})
