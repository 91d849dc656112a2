import { afterEach, describe, expect, it } from 'vitest'
import {
  ErrorCode,
  errorHandler,
  health,
  notFoundHandler,
  type ShapeguardConfig,
  shapeguard,
} from '../../src/index.js'
import { stopLoadSampler } from '../../src/runtime/lifecycle/load-sampler.js'
import { captureLogger, type Express, hosts, type LogRecord } from '../support/e2e.js'
import { listen } from '../support/streams.js'

// Load shedding on real Express 4 and 5 apps over HTTP on 127.0.0.1: within its limits an app
// answers as without `overload`; past them (a heap limit below what the process uses), every
// request is refused 503 OVERLOADED with Retry-After before its route runs, in the app's error
// format, with its request ID and its log line, and one warning says shedding started.

afterEach(() => stopLoadSampler())

const PLENTY = Number.MAX_SAFE_INTEGER

function app(express: Express, config: ShapeguardConfig) {
  const log = captureLogger()
  let ran = 0
  const a = express()
  a.use(shapeguard({ debug: false, logger: { instance: log }, ...config }))
  a.get('/work', (_req, res) => {
    ran++
    res.ok({ data: { done: true } })
  })
  a.use(notFoundHandler())
  a.use(errorHandler({ logger: log }))
  return { app: a, log, ran: () => ran }
}

async function get(
  target: ReturnType<Express>,
  path: string,
  count = 1,
): Promise<Array<{ status: number; headers: Headers; body: any }>> {
  const server = await listen(target)
  try {
    const answers = []
    for (let i = 0; i < count; i++) {
      const res = await fetch(`http://127.0.0.1:${server.port}${path}`)
      answers.push({ status: res.status, headers: res.headers, body: await res.json() })
    }
    return answers
  } finally {
    await server.close()
  }
}

const overloadLines = (records: LogRecord[]) =>
  records.filter((r) => r.message?.startsWith('shapeguard overload:'))

describe.each(hosts)('%s', (_, express) => {
  it('answers as without overload while the process is within its limits', async () => {
    const {
      app: a,
      log,
      ran,
    } = app(express, {
      overload: { maxEventLoopDelayMs: 60_000, maxHeapUsedBytes: PLENTY },
    })
    const answers = await get(a, '/work', 3)
    for (const res of answers) {
      expect(res.status).toBe(200)
      expect(res.headers.get('retry-after')).toBeNull()
      expect(res.body).toEqual({ success: true, message: '', data: { done: true } })
    }
    expect(ran()).toBe(3)
    expect(overloadLines(log.records)).toEqual([])
  })

  it('refuses every request 503 OVERLOADED with Retry-After in the envelope, before the route', async () => {
    const {
      app: a,
      log,
      ran,
    } = app(express, {
      overload: { maxHeapUsedBytes: 1, retryAfter: 7 },
      response: { includeRequestId: true },
    })
    const answers = await get(a, '/work', 5)
    for (const res of answers) {
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('7')
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect(res.headers.get('x-request-id')).toMatch(/.+/)
      expect(res.body).toEqual({
        success: false,
        message: 'The server is overloaded, try again later',
        error: {
          code: ErrorCode.OVERLOADED,
          message: 'The server is overloaded, try again later',
          details: null,
        },
      })
    }
    expect(ran()).toBe(0)
    // one line when shedding started (at mount: the heap is known at once), not one per request
    const lines = overloadLines(log.records)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({
      level: 'warn',
      meta: { maxHeapUsedBytes: 1, heapUsedBytes: expect.any(Number) },
    })
    // each refused request's own log line, with its ID and the code
    const refused = log.records.filter((r) => r.meta.status === 503)
    expect(refused).toHaveLength(5)
    for (const [i, line] of refused.entries()) {
      expect(line.meta).toMatchObject({
        requestId: answers[i]!.headers.get('x-request-id'),
        code: 'OVERLOADED',
      })
    }
  })

  it('refuses in problem+json, with the request ID in the problem', async () => {
    const {
      app: a,
      log,
      ran,
    } = app(express, {
      overload: { maxHeapUsedBytes: 1 },
      errors: { format: 'problem+json' },
    })
    const [res] = await get(a, '/work?q=1')
    expect(res!.status).toBe(503)
    expect(res!.headers.get('retry-after')).toBe('10')
    expect(res!.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    expect(res!.body).toEqual({
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: 'The server is overloaded, try again later',
      instance: '/work',
      code: 'OVERLOADED',
      requestId: expect.stringMatching(/^req_/),
    })
    const line = log.records.find((r) => r.meta.status === 503)
    expect(line?.meta).toMatchObject({ requestId: res!.body.requestId, code: 'OVERLOADED' })
    expect(ran()).toBe(0)
  })

  it('refuses an unknown path too: nothing of the app runs', async () => {
    const { app: a } = app(express, { overload: { maxHeapUsedBytes: 1 } })
    const [res] = await get(a, '/nowhere')
    expect(res!.status).toBe(503)
    expect(res!.body.error.code).toBe('OVERLOADED')
  })

  it('lets health() routes answer while shedding', async () => {
    const log = captureLogger()
    const a = express()
    a.use(
      shapeguard({ debug: false, logger: { instance: log }, overload: { maxHeapUsedBytes: 1 } }),
    )
    a.use(health())
    a.get('/work', (_req, res) => res.ok({ data: {} }))
    const [live] = await get(a, '/healthz')
    expect(live!.status).toBe(200)
    const [work] = await get(a, '/work')
    expect(work!.status).toBe(503)
  })
})
