import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import {
  configureLogger,
  errorHandler,
  generateOpenAPI,
  type HealthOptions,
  handle,
  health,
  type ShapeguardConfig,
  shapeguard,
} from '../../src/index.js'
import { markDraining } from '../../src/runtime/lifecycle/drain-state.js'
import { type Express, hosts, withLogging } from '../support/e2e.js'

configureLogger({ silent: true })

const servers: Server[] = []
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    server.close()
  }
})

async function listen(app: ReturnType<Express>): Promise<{ server: Server; url: string }> {
  const server = app.listen(0, '127.0.0.1')
  servers.push(server)
  await once(server, 'listening')
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

async function get(url: string, method = 'GET') {
  const res = await fetch(url, { method })
  const text = await res.text()
  const json = /json/.test(res.headers.get('content-type') ?? '') && text !== ''
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: json ? JSON.parse(text) : undefined,
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function appWith(
  express: Express,
  options: HealthOptions,
  config: ShapeguardConfig | false = { debug: false },
) {
  const app = express()
  if (config !== false) app.use(shapeguard(config))
  app.use(health(options))
  app.get('/items', ...handle({}, (_req, res) => res.ok({ data: [] })))
  app.use(errorHandler())
  return app
}

describe.each(hosts)('health() on %s', (_, express) => {
  it('answers liveness with 200 in the envelope, no-store, on GET and HEAD, with or without shapeguard()', async () => {
    for (const config of [{ debug: false }, false] as const) {
      const { url } = await listen(appWith(express, {}, config))
      const live = await get(`${url}/healthz`)
      expect(live.status).toBe(200)
      expect(live.body).toEqual({ success: true, message: '', data: { status: 'ok' } })
      expect(live.headers.get('cache-control')).toBe('no-store')
      const head = await get(`${url}/healthz`, 'HEAD')
      expect([head.status, head.text]).toEqual([200, ''])
    }
  })

  it('answers readiness with 200 and each check by name once every check passes', async () => {
    const { url } = await listen(
      appWith(express, {
        checks: {
          sync: () => true,
          async: async () => 'connected',
          own: { check: async () => undefined, timeoutMs: 500 },
        },
      }),
    )
    const ready = await get(`${url}/readyz`)
    expect(ready.status).toBe(200)
    expect(ready.body.data).toEqual({
      status: 'ok',
      checks: { sync: 'ok', async: 'ok', own: 'ok' },
    })
    expect(ready.headers.get('cache-control')).toBe('no-store')
  })

  it('answers 503 NOT_READY naming each failing check, never its error text in production', async () => {
    const secret = 'postgres://admin:hunter2@db.internal'
    const { url } = await listen(
      appWith(express, {
        timeoutMs: 50,
        checks: {
          fine: () => true,
          throws: () => {
            throw new Error(`cannot reach ${secret}`)
          },
          rejects: () => Promise.reject(new Error(`refused by ${secret}`)),
          returnsFalse: async () => false,
          hangs: () => new Promise(() => {}),
        },
      }),
    )
    const started = performance.now()
    const ready = await get(`${url}/readyz`)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(ready.status).toBe(503)
    expect(ready.body.error.code).toBe('NOT_READY')
    expect(ready.body.error.details).toEqual({
      checks: {
        fine: 'ok',
        throws: 'failed',
        rejects: 'failed',
        returnsFalse: 'failed',
        hangs: 'timeout',
      },
    })
    expect(ready.text).not.toContain('hunter2')
    expect(ready.text).not.toContain('refused')
    expect(ready.headers.get('cache-control')).toBe('no-store')
  })

  it('gives a short line per failing check in development, never a stack', async () => {
    const { url } = await listen(
      appWith(
        express,
        {
          timeoutMs: 30,
          checks: {
            db: () => Promise.reject(new TypeError(`bad\nline ${'x'.repeat(500)}`)),
            slow: () => new Promise(() => {}),
            off: () => false,
          },
        },
        { debug: true, logger: { silent: true } },
      ),
    )
    const ready = await get(`${url}/readyz`)
    const { reasons } = ready.body.error.details
    expect(reasons.slow).toBe('did not answer within its timeout')
    expect(reasons.off).toBe('returned false')
    expect(reasons.db).toMatch(/^TypeError: bad\\u000aline x+…$/)
    expect(reasons.db.length).toBeLessThanOrEqual(130)
    expect(ready.text).not.toContain('    at ')
  })

  it('answers in problem+json with the checks as members when the app says so', async () => {
    const { url } = await listen(
      appWith(
        express,
        { checks: { db: () => false } },
        { debug: false, errors: { format: 'problem+json' } },
      ),
    )
    const ready = await get(`${url}/readyz`)
    expect(ready.status).toBe(503)
    expect(ready.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    expect(ready.body).toMatchObject({ status: 503, code: 'NOT_READY', checks: { db: 'failed' } })
  })

  it('answers readiness 503 without running the checks once the server drains; liveness stays 200', async () => {
    let calls = 0
    const { server, url } = await listen(
      appWith(express, {
        checks: {
          db: () => {
            calls++
            return true
          },
        },
      }),
    )
    expect((await get(`${url}/readyz`)).status).toBe(200)
    markDraining(server)
    const ready = await get(`${url}/readyz`)
    expect(ready.status).toBe(503)
    expect(ready.body.error).toMatchObject({ code: 'NOT_READY', details: { draining: true } })
    expect(calls).toBe(1)
    expect((await get(`${url}/healthz`)).status).toBe(200)
  })

  it('runs concurrent probes through one run of the checks', async () => {
    let calls = 0
    const { url } = await listen(
      appWith(express, {
        checks: {
          db: async () => {
            calls++
            // Long enough for 200 probes to arrive within one run on a loaded 2-core machine.
            await sleep(1000)
            return true
          },
        },
      }),
    )
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => fetch(`${url}/readyz`).then((r) => r.status)),
    )
    expect(answers.every((status) => status === 200)).toBe(true)
    expect(calls).toBeLessThanOrEqual(2)
    // The run is over: the next probe runs the checks again.
    await get(`${url}/readyz`)
    expect(calls).toBeGreaterThan(1)
  })

  it('aborts a hanging check’s signal at its timeout and leaves no timer behind', async () => {
    let signal: AbortSignal | undefined
    const { url } = await listen(
      appWith(express, {
        checks: {
          hangs: {
            check: (s) => {
              signal = s
              return new Promise(() => {})
            },
            timeoutMs: 20,
          },
          passes: { check: async () => true, timeoutMs: 60_000 },
        },
      }),
    )
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length
    const before = timers()
    expect((await get(`${url}/readyz`)).status).toBe(503)
    expect(signal?.aborted).toBe(true)
    expect(timers()).toBeLessThanOrEqual(before)
  })

  it('serves under a mount path', async () => {
    const app = express()
    app.use(shapeguard({ debug: false }))
    app.use('/ops', health({ paths: { liveness: '/live', readiness: '/ready' } }))
    const { url } = await listen(app)
    expect((await get(`${url}/ops/live`)).status).toBe(200)
    expect((await get(`${url}/ops/ready`)).body.data).toEqual({ status: 'ok', checks: {} })
    expect((await get(`${url}/live`)).status).toBe(404)
    expect((await get(`${url}/ops/healthz`)).status).toBe(404)
  })

  it('is left out of the OpenAPI document unless document: true', () => {
    const paths = (app: ReturnType<Express>) =>
      Object.keys(generateOpenAPI({ title: 't', version: '1', app }).paths ?? {})
    const hidden = express()
    hidden.use(shapeguard({ debug: false }))
    hidden.use('/ops', health({ checks: { db: () => true } }))
    hidden.get('/items', ...handle({}, (_req, res) => res.ok({ data: [] })))
    expect(paths(hidden)).toEqual(['/items'])

    const shown = express()
    shown.use(shapeguard({ debug: false }))
    shown.use('/ops', health({ checks: { db: () => true }, document: true }))
    const spec = generateOpenAPI({ title: 't', version: '1', app: shown }) as any
    expect(Object.keys(spec.paths).sort()).toEqual(['/ops/healthz', '/ops/readyz'])
    const readyz = spec.paths['/ops/readyz'].get
    expect(Object.keys(readyz.responses)).toEqual(expect.arrayContaining(['200', '503']))
    expect(readyz.security).toEqual([])
    const data = readyz.responses['200'].content['application/json'].schema.properties.data
    expect(data.properties.checks.properties.db).toMatchObject({ const: 'ok' })
  })
})

const passes = (): boolean => true

describe('health() options', () => {
  it.each([
    [{ checks: { db: 'select 1' } }, /checks\.db: must be a function/],
    [{ checks: { db: { check: passes, timeout: 5 } } }, /checks\.db: timeout is not an option/],
    [{ checks: { db: { check: passes, timeoutMs: 0 } } }, /db\.timeoutMs must be an integer/],
    [{ timeoutMs: -1 }, /health\(\): timeoutMs must be an integer/],
    [{ paths: { liveness: '/:id' } }, /paths\.liveness must be a literal path/],
    [{ paths: { readiness: 'readyz' } }, /paths\.readiness must be a literal path/],
    [{ paths: { liveness: '/x', readiness: '/x' } }, /must differ/],
    [{ check: {} }, /check is not an option/],
    [{ log: 'yes' }, /log must be a boolean/],
  ])('refuses %j at mount', (options, message) => {
    expect(() => health(options as never)).toThrow(message)
  })
})

/** A pino writing JSON lines to memory, as an app's logger. */
function pinoLines() {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const text of String(chunk).split('\n')) if (text !== '') lines.push(JSON.parse(text))
      callback()
    },
  })
  return { lines, instance: pino({ level: 'debug', base: null, timestamp: false }, stream) }
}

describe.each(hosts)('health() logging on %s', (_, express) => {
  const statuses = (lines: Record<string, unknown>[]) =>
    lines.filter((l) => l.status !== undefined).map((l) => [l.endpoint, l.status])

  it('writes no request line for probes in development, and lines for other routes', () =>
    withLogging(async () => {
      const out = pinoLines()
      const app = appWith(
        express,
        { checks: { db: () => false } },
        { debug: true, logger: { instance: out.instance, logResponseBody: true } },
      )
      const { url } = await listen(app)
      expect((await get(`${url}/healthz`)).status).toBe(200)
      const ready = await get(`${url}/readyz`)
      expect(ready.status).toBe(503)
      expect(ready.body.error.code).toBe('NOT_READY')
      expect((await get(`${url}/items`)).status).toBe(200)
      await sleep(10)
      expect(statuses(out.lines)).toEqual([['/items', 200]])
    }))

  it.each([
    [false, []],
    [true, [['/readyz', 503]]],
  ])('in production, with log: %s, writes %j for a failing readiness', (log, expected) =>
    withLogging(async () => {
      const out = pinoLines()
      const app = appWith(
        express,
        { checks: { db: () => false }, log },
        { debug: false, logger: { instance: out.instance } },
      )
      const { url } = await listen(app)
      expect((await get(`${url}/readyz`)).status).toBe(503)
      await sleep(10)
      expect(statuses(out.lines)).toEqual(expected)
    }),
  )
})
