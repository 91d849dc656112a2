import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import { configureLogger, resetLogger } from '../../../src/runtime/logging/logger.js'
import type { LoggerOptions } from '../../../src/runtime/logging/options.js'
import { ANSI } from '../../../src/runtime/logging/pretty.js'
import { abandon } from '../../support/e2e.js'
import { BACKENDS, type Capture, CLOCK, capture, ISO, settle } from '../../support/log-capture.js'
import { FakeAppError, handOver, ID, makeApp } from '../../support/logging-app.js'

afterEach(() => resetLogger())

type Backend = (typeof BACKENDS)[number]

async function run(
  backend: Backend,
  options: LoggerOptions,
  calls: (agent: ReturnType<typeof request>) => Promise<unknown>,
  { tty = false, debug = true, id = ID as string | undefined } = {},
): Promise<Capture> {
  const out = capture(tty)
  const app = makeApp(options, { stream: out, backend }, { debug, id })
  await calls(request(app))
  await settle()
  return out
}

const line = (body: string) => new RegExp(`^${CLOCK} ${body}$`)

describe.each(BACKENDS)('requestLogger through %s, JSON mode', (backend) => {
  const json = { pretty: false, level: 'debug' } as const

  it('writes an arrival record at debug and one response record with every field', async () => {
    const out = await run(backend, json, (r) => r.get('/users/42?token=abc'))
    expect(out.records()).toEqual([
      {
        level: 'debug',
        time: expect.stringMatching(ISO),
        requestId: ID,
        method: 'GET',
        path: '/users/42',
        message: '>> GET /users/42',
      },
      {
        level: 'info',
        time: expect.stringMatching(ISO),
        requestId: ID,
        method: 'GET',
        endpoint: '/users/:id',
        status: 200,
        duration_ms: expect.any(Number),
      },
    ])
  })

  it('logs a 4xx at warn with code and message, without stack', async () => {
    const out = await run(backend, { ...json, logIncoming: false }, (r) => r.delete('/users/7'))
    expect(out.records()).toEqual([
      {
        level: 'warn',
        time: expect.stringMatching(ISO),
        requestId: ID,
        method: 'DELETE',
        endpoint: '/users/:id',
        status: 404,
        duration_ms: expect.any(Number),
        code: 'NOT_FOUND',
        message: 'User not found',
      },
    ])
  })

  it('logs a 5xx at error with the stack of what was thrown and its cause', async () => {
    const out = await run(backend, { ...json, logIncoming: false }, (r) => r.get('/crash'))
    const [record] = out.records()
    expect(out.records()).toHaveLength(1)
    expect(record).toMatchObject({
      level: 'error',
      endpoint: '/crash',
      status: 500,
      code: 'INTERNAL_ERROR',
      message: 'Something went wrong',
      stack: expect.stringMatching(/^TypeError: x is not a function\n/),
      cause: { message: 'root cause', stack: expect.stringMatching(/^Error: root cause\n/) },
    })
  })

  it('flags a slow response with slow: true at warn; slowThreshold 0 disables it', async () => {
    const slow = await run(backend, { ...json, logIncoming: false, slowThreshold: 20 }, (r) =>
      r.get('/slow'),
    )
    expect(slow.records()[0]).toMatchObject({ level: 'warn', status: 200, slow: true })
    expect(slow.records()[0]!.duration_ms).toBeGreaterThanOrEqual(20)
    const off = await run(backend, { ...json, logIncoming: false, slowThreshold: 0 }, (r) =>
      r.get('/slow'),
    )
    expect(off.records()[0]).toMatchObject({ level: 'info' })
    expect(off.records()[0]).not.toHaveProperty('slow')
  })

  it('adds ip, and redacted request and response bodies when asked', async () => {
    const out = await run(
      backend,
      {
        ...json,
        logIncoming: false,
        logClientIp: true,
        logRequestBody: true,
        logResponseBody: true,
        redact: ['name'],
      },
      (r) =>
        r
          .post('/users')
          .set('x-forwarded-for', '203.0.113.9')
          .send({ name: 'ada', password: 'pw', age: 3 }),
    )
    expect(out.records()[0]).toMatchObject({
      status: 201,
      ip: '203.0.113.9',
      reqBody: { name: '[REDACTED]', password: '[REDACTED]', age: 3 },
      resBody: { success: true, data: { name: '[REDACTED]' } },
    })
  })

  it('leaves the request ID out when logRequestId is off or IDs are disabled', async () => {
    const off = await run(backend, { ...json, logIncoming: false, logRequestId: false }, (r) =>
      r.get('/users/1'),
    )
    expect(off.records()[0]).not.toHaveProperty('requestId')
    const none = await run(backend, { ...json, logIncoming: false }, (r) => r.get('/users/1'), {
      id: '',
    })
    expect(none.records()[0]).not.toHaveProperty('requestId')
  })

  it('keeps the full request ID with shortRequestId (it is for pretty lines only)', async () => {
    const out = await run(backend, { ...json, logIncoming: false, shortRequestId: true }, (r) =>
      r.get('/users/1'),
    )
    expect(out.records()[0]).toMatchObject({ requestId: ID })
  })
})

describe.each(BACKENDS)('requestLogger through %s, aborted requests', (backend) => {
  async function abandoned(options: LoggerOptions, debug: boolean): Promise<Capture> {
    const out = capture(false)
    await abandon(makeApp(options, { stream: out, backend }, { debug }), '/hang')
    await settle()
    return out
  }

  it('writes an aborted record at warn, without a status no response head carried', async () => {
    const out = await abandoned({ pretty: false }, false)
    expect(out.records()).toEqual([
      {
        level: 'warn',
        time: expect.stringMatching(ISO),
        requestId: ID,
        method: 'GET',
        endpoint: '/hang',
        duration_ms: expect.any(Number),
        aborted: true,
      },
    ])
  })

  it('ends the pretty line with ABORTED, a dash for the status', async () => {
    const out = await abandoned({ pretty: true, logIncoming: false }, true)
    expect(out.lines()).toEqual([
      expect.stringMatching(line(`\\[WARN\\] << - GET /hang \\d+ms \\[${ID}\\] ABORTED`)),
    ])
  })
})

describe.each(BACKENDS)('requestLogger through %s, pretty mode', (backend) => {
  const pretty = { pretty: true, level: 'debug' } as const

  it('writes the >> arrival and << response lines, without the query string', async () => {
    const out = await run(backend, pretty, (r) => r.get('/users/42?token=abc'))
    expect(out.lines()).toEqual([
      expect.stringMatching(line(`\\[DEBUG\\] >> GET /users/42 \\[${ID}\\]`)),
      expect.stringMatching(line(`\\[INFO\\] << 200 GET /users/42 \\d+ms \\[${ID}\\]`)),
    ])
  })

  it('picks the level by status and adds the error under a 4xx line', async () => {
    const out = await run(backend, { ...pretty, logIncoming: false }, (r) => r.delete('/users/7'))
    expect(out.lines()).toEqual([
      expect.stringMatching(line(`\\[WARN\\] << 404 DELETE /users/7 \\d+ms \\[${ID}\\]`)),
      '  NOT_FOUND: User not found',
    ])
  })

  it('adds the error, the stack and the cause under a 5xx line', async () => {
    const out = await run(backend, { ...pretty, logIncoming: false }, (r) => r.get('/crash'))
    const lines = out.lines()
    expect(lines[0]).toMatch(line(`\\[ERROR\\] << 500 GET /crash \\d+ms \\[${ID}\\]`))
    expect(lines[1]).toBe('  INTERNAL_ERROR: Something went wrong')
    expect(lines[2]).toBe('  TypeError: x is not a function')
    expect(lines).toContain('  cause: Error: root cause')
  })

  it('ends a slow line with SLOW, after the client address', async () => {
    const out = await run(
      backend,
      { ...pretty, logIncoming: false, slowThreshold: 20, logClientIp: true },
      (r) => r.get('/slow').set('x-forwarded-for', '203.0.113.9'),
    )
    expect(out.lines()).toEqual([
      expect.stringMatching(
        line(`\\[WARN\\] << 200 GET /slow \\d+ms \\[${ID}\\] 203\\.0\\.113\\.9 SLOW`),
      ),
    ])
  })

  it('shows the last 8 characters with shortRequestId, nothing without an ID', async () => {
    const short = await run(backend, { ...pretty, shortRequestId: true }, (r) => r.get('/users/1'))
    expect(short.lines()[0]).toMatch(line(`\\[DEBUG\\] >> GET /users/1 \\[${ID.slice(-8)}\\]`))
    expect(short.lines()[1]).toMatch(new RegExp(`\\[${ID.slice(-8)}\\]$`))
    const none = await run(backend, { ...pretty, logRequestId: false }, (r) => r.get('/users/1'))
    expect(none.lines()[1]).toMatch(line('\\[INFO\\] << 200 GET /users/1 \\d+ms'))
  })

  it('hides the arrival line when logIncoming is off or debug is filtered out', async () => {
    const off = await run(backend, { ...pretty, logIncoming: false }, (r) => r.get('/users/1'))
    expect(off.lines()).toHaveLength(1)
    const info = await run(backend, { ...pretty, level: 'info' }, (r) => r.get('/users/1'))
    expect(info.lines()).toHaveLength(1)
  })

  it('writes pure ASCII without colours when the stream is not a terminal', async () => {
    const out = await run(backend, pretty, (r) => r.get('/crash'))
    expect(out.chunks.join('')).toMatch(/^[\x20-\x7e\n]*$/)
  })

  it('colours badges, and lines by method, on a terminal', async () => {
    const out = await run(backend, { ...pretty, logIncoming: false }, (r) => r.get('/users/1'), {
      tty: true,
    })
    expect(out.lines()[0]).toContain(`${ANSI.green}[INFO]${ANSI.reset}`)
    expect(out.lines()[0]).toContain(`${ANSI.green}<< 200 GET /users/1 `)
    const post = await run(
      backend,
      { ...pretty, logIncoming: false },
      (r) => r.post('/users').send({}),
      { tty: true },
    )
    expect(post.lines()[0]).toContain(`${ANSI.cyan}<< 201 POST /users `)
    const del = await run(backend, { ...pretty, logIncoming: false }, (r) => r.delete('/users/1'), {
      tty: true,
    })
    expect(del.lines()[0]).toContain(`${ANSI.yellow}[WARN]${ANSI.reset}`)
    expect(del.lines()[0]).toContain(`${ANSI.red}<< 404 DELETE /users/1 `)
  })

  it("colours lines by status with lineColor: 'level'", async () => {
    const opts = { ...pretty, logIncoming: false, lineColor: 'level' } as const
    const ok = await run(backend, opts, (r) => r.delete('/users/1'), { tty: true })
    expect(ok.lines()[0]).toContain(`${ANSI.yellow}<< 404 DELETE`)
    const crash = await run(backend, opts, (r) => r.get('/crash'), { tty: true })
    expect(crash.lines()[0]).toContain(`${ANSI.red}[ERROR]${ANSI.reset} ${ANSI.red}<< 500 GET`)
    const debug = await run(backend, { ...opts, logIncoming: true }, (r) => r.get('/users/1'), {
      tty: true,
    })
    expect(debug.lines()[0]).toContain(`${ANSI.cyan}[DEBUG]${ANSI.reset}`)
  })

  it('logs bodies on indented lines, redacted', async () => {
    const out = await run(
      backend,
      { ...pretty, logIncoming: false, logRequestBody: true, logResponseBody: true },
      (r) => r.post('/users').send({ name: 'ada', password: 'pw' }),
    )
    expect(out.lines().slice(1)).toEqual([
      '  reqBody: {"name":"ada","password":"[REDACTED]"}',
      '  resBody: {"success":true,"data":{"name":"ada"}}',
    ])
  })
})

describe('requestLogger', () => {
  it('loses the lines of a logger.instance that throws, never the request or the process', async () => {
    const broken = () => {
      throw new Error('log backend down')
    }
    const instance = { debug: broken, info: broken, warn: broken, error: broken }
    const app = makeApp({ instance }, {})
    const res = await request(app).get('/users/42')
    expect(res.status).toBe(200)
    expect((await request(app).get('/crash')).status).toBe(500)
    await settle()
  })

  it('escapes control characters in messages, so a client cannot forge a pretty line', async () => {
    const out = capture(false)
    const app = makeApp({ pretty: true, logIncoming: false }, { stream: out, backend: 'console' })
    app.get('/forged', (req, res, next) =>
      handOver(
        new FakeAppError('BAD', 'key "x\n12:00:00.000 [INFO] << 200 GET /admin\u001b[2J"', 400),
        req,
        res,
        next,
      ),
    )
    await request(app).get('/forged')
    await settle()
    const lines = out.lines()
    expect(lines).toHaveLength(2)
    expect(lines[1]).toBe('  BAD: key "x\\u000a12:00:00.000 [INFO] << 200 GET /admin\\u001b[2J"')
  })

  it('logs only 4xx, 5xx and slow requests when logAllRequests is off (the production default)', async () => {
    const out = await run(
      'console',
      { level: 'debug', logIncoming: false, slowThreshold: 20 },
      async (r) => {
        await r.get('/users/1')
        await r.delete('/users/1')
        await r.get('/crash')
        await r.get('/slow')
      },
      { debug: false },
    )
    expect(out.records().map((r) => [r.status, r.level])).toEqual([
      [404, 'warn'],
      [500, 'error'],
      [200, 'warn'],
    ])
  })

  it('filters by level: the production default warn hides 2xx even with logAllRequests', async () => {
    const out = await run(
      'console',
      { logAllRequests: true },
      async (r) => {
        await r.get('/users/1')
        await r.delete('/users/1')
      },
      { debug: false },
    )
    expect(out.records().map((r) => r.status)).toEqual([404])
  })

  it('writes nothing when silent, and configureLogger brings it back', async () => {
    const out = capture()
    const app = makeApp(
      { silent: true, pretty: false, logIncoming: false },
      { stream: out, backend: 'console' },
    )
    await request(app).get('/crash')
    expect(out.chunks).toEqual([])
    configureLogger({ silent: false })
    await request(app).get('/crash')
    expect(out.records().map((r) => r.status)).toEqual([500])
    configureLogger({ level: 'error' })
    await request(app).delete('/users/1')
    expect(out.records()).toHaveLength(1)
  })

  it('hands structured records to a logger.instance', async () => {
    const calls: Array<[string, unknown[]]> = []
    const at =
      (level: string) =>
      (...args: unknown[]) =>
        void calls.push([level, args])
    const instance = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
    await run('console', { instance, pretty: true }, (r) => r.delete('/users/9'))
    expect(calls).toEqual([
      ['debug', [{ requestId: ID, method: 'DELETE', path: '/users/9' }, '>> DELETE /users/9']],
      [
        'warn',
        [
          {
            requestId: ID,
            method: 'DELETE',
            endpoint: '/users/:id',
            status: 404,
            duration_ms: expect.any(Number),
            code: 'NOT_FOUND',
            message: 'User not found',
          },
        ],
      ],
    ])
  })

  it('throws at mount time when logger.instance misses a method', () => {
    const noop = () => {}
    expect(() =>
      makeApp({ instance: { info: noop, warn: noop, error: noop } as never }, {}),
    ).toThrow(/missing: debug/)
  })

  it('throws at mount time on a bad option or redact path', () => {
    expect(() => makeApp({ redact: ['a..b'] }, {})).toThrow(/logger\.redact\[0\]/)
    expect(() => makeApp({ slowThreshold: -5 }, {})).toThrow(/logger\.slowThreshold/)
  })

  it('writes one line per request when two request loggers watch it', async () => {
    const out = capture()
    const app = makeApp({ pretty: false, logIncoming: false }, { stream: out, backend: 'console' })
    const { requestLogger } = await import('../../../src/runtime/logging/request-logger.js')
    const outer = (await import('express')).default()
    outer.use(
      requestLogger({ pretty: false, logIncoming: false }, true, {
        stream: out,
        backend: 'console',
      }),
    )
    outer.use(app)
    await request(outer).get('/crash')
    expect(out.records()).toHaveLength(1)
  })

  it('leaves res.json alone unless logResponseBody is on', async () => {
    const express = (await import('express')).default
    const { requestLogger } = await import('../../../src/runtime/logging/request-logger.js')
    const seen: boolean[] = []
    for (const logResponseBody of [false, true]) {
      const app = express()
      app.use(requestLogger({ logResponseBody }, true, { stream: capture(), backend: 'console' }))
      app.get('/', (_req, res) => {
        seen.push(Object.hasOwn(res, 'json'))
        res.json({})
      })
      await request(app).get('/')
    }
    expect(seen).toEqual([false, true])
  })
})

describe('requestLogger with response doubles', () => {
  it('passes a response without events through untouched, so errors are logged elsewhere', async () => {
    const { requestLogger } = await import('../../../src/runtime/logging/request-logger.js')
    const { peekContext } = await import('../../../src/runtime/core/context.js')
    const middleware = requestLogger({}, true, { stream: capture(), backend: 'console' })
    const res = { statusCode: 200 } as never
    let called = 0
    middleware({ method: 'GET', url: '/' } as never, res, () => void called++)
    expect(called).toBe(1)
    expect(peekContext(res)?.log).toBeUndefined()
  })
})
