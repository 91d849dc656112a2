import { Writable } from 'node:stream'
import { SpanKind } from '@opentelemetry/api'
import express, { type Express } from 'express'
import pino from 'pino'
import request from 'supertest'
import { afterEach, describe, expect, it, vi } from 'vitest'
import winston from 'winston'
import { winstonAdapter } from '../../../src/adapters-winston.js'
import { errorHandler, logger, shapeguard } from '../../../src/index.js'
import { resolveAuth } from '../../../src/runtime/auth/resolve-auth.js'
import type { AuthConfig } from '../../../src/runtime/auth/types.js'
import { credentialPaths } from '../../../src/runtime/logging/credential-paths.js'
import { resetLogger } from '../../../src/runtime/logging/logger.js'
import { requestLogger } from '../../../src/runtime/logging/request-logger.js'
import type { Logger } from '../../../src/runtime/logging/types.js'
import { BACKEND_MODES, capture, settle } from '../../support/log-capture.js'
import { useInstrumentedSdk } from '../../support/otel-instrument.js'

// A request carrying every credential shapeguard({ auth }) reads, through real apps with every
// log backend at debug with the request body logged, a handler that logs the whole request, an
// error answer and OpenTelemetry's HTTP and Express instrumentations: no line and no span
// attribute may hold any of them.

const sdk = useInstrumentedSdk()
afterEach(() => {
  vi.restoreAllMocks()
  resetLogger()
})

const basic = (user: string, password: string) =>
  Buffer.from(`${user}:${password}`).toString('base64')
const CREDENTIAL = {
  bearer: 'bearerTOKEN7f3a',
  password: 'basicPASSWORD5d2e',
  basic: basic('ada', 'basicPASSWORD5d2e'),
  proxy: basic('proxy', 'proxyPASSWORD9c41'),
  header: 'headerKEY3e7f',
  query: 'queryKEY61d0',
  cookie: 'cookieKEY0b9a',
}
const SECRETS = Object.values(CREDENTIAL)

// Names the always-redacted keys do not cover: only the declaration makes them secret.
const AUTH = {
  bearer: () => ({ user: 'ada' }),
  basic: () => ({ user: 'ada' }),
  client: { in: 'header', name: 'X-Client-Key', verify: () => ({ client: 'ci' }) },
  link: { in: 'query', name: 'k', verify: () => ({ client: 'link' }) },
  session: { in: 'cookie', name: 'sg', verify: () => ({ client: 'web' }) },
} satisfies AuthConfig

function routes(app: Express): Express {
  app.use(express.json())
  app.post('/items', (req, res) => {
    logger.info({ req }, 'the whole request')
    logger.debug(
      { headers: req.headers, query: req.query, url: req.originalUrl, cookies: req.cookies },
      `serving ${req.originalUrl}`,
    )
    res.status(201).json({ ok: true })
  })
  app.get('/crash', (req) => {
    throw new Error(`broke on ${req.originalUrl}`)
  })
  app.use(errorHandler())
  return app
}

async function send(app: Express): Promise<void> {
  const common = {
    'X-Client-Key': CREDENTIAL.header,
    Cookie: `theme=dark; sg=${CREDENTIAL.cookie}`,
    'Proxy-Authorization': `Basic ${CREDENTIAL.proxy}`,
  }
  await request(app)
    .post(`/items?k=${CREDENTIAL.query}&page=2`)
    .set({ ...common, Authorization: `Bearer ${CREDENTIAL.bearer}` })
    .send({ name: 'ada' })
    .expect(201)
  await request(app)
    .post(`/items?page=2&k=${CREDENTIAL.query}`)
    .set({ ...common, Authorization: `Basic ${CREDENTIAL.basic}` })
    .send({ name: 'ada' })
    .expect(201)
  await request(app)
    .get(`/crash?k=${CREDENTIAL.query}`)
    .set({ ...common, Authorization: `Bearer ${CREDENTIAL.bearer}` })
    .expect(500)
  await settle()
}

function expectNoSecret(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret)
}

// The server's spans: the client span is supertest's own request, which the HTTP
// instrumentation records in this process too.
async function expectCleanSpans(): Promise<void> {
  const spans = (await sdk().spans()).filter((s) => s.kind !== SpanKind.CLIENT)
  const server = spans.filter((s) => s.kind === SpanKind.SERVER)
  expect(server).toHaveLength(3)
  for (const s of server) expect(s.attributes['url.query']).toMatch(/k=REDACTED/)
  // The Express instrumentation records the error /crash throws (its message holds the URL the
  // handler put there) as an `exception` event, before any middleware sees it: that one is the
  // handler's own text, out of shapeguard's reach.
  const events = spans.map((s) => s.events.filter((e) => e.name !== 'exception'))
  expectNoSecret(JSON.stringify(spans.map((s) => [s.name, s.attributes])))
  expectNoSecret(JSON.stringify(events))
  await sdk().reset()
}

describe.each(BACKEND_MODES)('credentials with the %s backend (pretty: %s)', (backend, pretty) => {
  it('reach no log line and no span attribute', async () => {
    await sdk().reset()
    const out = capture()
    const options = { level: 'debug', pretty, logRequestBody: true, logResponseBody: true } as const
    const credentials = credentialPaths(resolveAuth(AUTH, undefined).schemes)
    const app = express()
    app.use(requestLogger(options, true, { stream: out, backend }, credentials))
    await send(routes(app))
    const text = out.chunks.join('')
    // The lines are there, with what they redacted: the test can see a leak.
    expect(text).toContain('the whole request')
    expect(text).toMatch(/serving \/items\?k=\[REDACTED\]&page=2/)
    expect(text).toContain('broke on /crash?k=[REDACTED]')
    expectNoSecret(text)
    await expectCleanSpans()
  })
})

describe('shapeguard({ auth }) redacts its API keys by default', () => {
  it('through its own backend (pino), at debug with bodies logged', async () => {
    await sdk().reset()
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    const app = express()
    // pino's JSON goes to fd 1 directly; its pretty lines through process.stdout.
    app.use(
      shapeguard({
        auth: AUTH,
        logger: { level: 'debug', pretty: true, logRequestBody: true, logResponseBody: true },
      }),
    )
    await send(routes(app))
    await vi.waitUntil(() => write.mock.calls.some((c) => String(c[0]).includes('<< 500')))
    const text = write.mock.calls.map((c) => String(c[0])).join('')
    expect(text).toContain('x-client-key')
    expectNoSecret(text)
    await expectCleanSpans()
  })

  it('through a logger instance (winston), which gets structured records', async () => {
    const chunks: string[] = []
    const stream = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk))
        done()
      },
    })
    const instances: Logger[] = [
      winstonAdapter(
        winston.createLogger({
          level: 'debug',
          format: winston.format.json(),
          transports: [new winston.transports.Stream({ stream })],
        }),
      ),
      pino({ level: 'debug' }, stream),
    ]
    for (const instance of instances) {
      const app = express()
      app.use(shapeguard({ auth: AUTH, logger: { instance } }))
      await send(routes(app))
    }
    const text = chunks.join('')
    expect(text).toContain('"x-client-key":"[REDACTED]"')
    expect(text).toContain('"k":"[REDACTED]"')
    expectNoSecret(text)
    await sdk().reset()
  })
})
