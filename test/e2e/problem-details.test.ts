import { createHmac } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import {
  configureLogger,
  ErrorCode,
  type ErrorFormat,
  errorHandler,
  handle,
  type ProblemDetails,
  shapeguard,
} from '../../src/index.js'
import { hosts } from '../support/e2e.js'
import {
  app,
  cases,
  JSON_TYPE,
  now,
  PROBLEM,
  postUsers,
  secret,
  titles,
} from '../support/problem-details-app.js'

// Every code of the registry, raised for real on Express 4 and 5, answered in both formats:
// the envelope (unchanged) and RFC 9457 problem details with the same code, message and
// details, the HTTP status as `status`, the media type, and the headers kept.

beforeAll(() => {
  configureLogger({ silent: true })
})

// The members a problem carries for an envelope's details, as the format says.
function extensionsOf(code: string, details: unknown, part?: string): Record<string, unknown> {
  if (details === null) return {}
  if (code === 'VALIDATION_ERROR') {
    const issues = Array.isArray(details) ? details : [details]
    return { errors: issues.map((issue) => ({ ...issue, in: part })) }
  }
  if (typeof details === 'object' && !Array.isArray(details)) return { ...details }
  return { details }
}

// SHUTTING_DOWN is written by a draining server before the app sees the request: its envelope
// and problem details are compared in test/e2e/shutdown.test.ts.
const elsewhere = ['SHUTTING_DOWN']

it('covers every code of the registry', () => {
  expect([...cases.map((c) => c.code), ...elsewhere].sort()).toEqual(Object.keys(ErrorCode).sort())
})

describe.each(hosts)('%s', (_, express) => {
  describe.each([true, false])('debug %s', (debug) => {
    it.each(cases)('$code: the envelope, and problem details saying the same', async (c) => {
      const envelope = await c.send(app(express, { debug }))
      const problem = await c.send(app(express, { debug, errors: { format: 'problem+json' } }))

      expect(envelope.status).toBe(c.status)
      expect(envelope.headers['content-type']).toBe(JSON_TYPE)
      expect(envelope.body).toMatchObject({ success: false, error: { code: c.code } })

      expect(problem.status).toBe(c.status)
      expect(problem.headers['content-type']).toBe(PROBLEM)
      const body = JSON.parse(problem.text)
      const { message, error } = envelope.body
      const part = c.code === 'VALIDATION_ERROR' ? 'body' : undefined
      expect(body).toStrictEqual({
        type: 'about:blank',
        title: titles[c.status],
        status: c.status,
        detail: message,
        instance: c.path,
        code: c.code,
        requestId: problem.headers['x-request-id'],
        ...extensionsOf(c.code, error.details, part),
      })
      expect(Object.keys(body).slice(0, 7)).toEqual([
        'type',
        'title',
        'status',
        'detail',
        'instance',
        'code',
        'requestId',
      ])
      expect(problem.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/)

      // The headers of the answer stay what they were.
      for (const header of ['allow', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining']) {
        expect(problem.headers[header], header).toBe(envelope.headers[header])
      }
    })
  })

  it('keeps Allow on a 405 and Retry-After on a 429, with allowed and retryAfter members', async () => {
    const problems = app(express, { errors: { format: 'problem+json' } })
    const notAllowed = await request(problems).post('/items')
    expect(notAllowed.headers.allow).toBe('GET, HEAD')
    expect(JSON.parse(notAllowed.text).allowed).toEqual(['GET', 'HEAD'])
    const limited = await request(problems).post('/login')
    expect(limited.headers['retry-after']).toBe('60')
    expect(JSON.parse(limited.text).retryAfter).toBe(60)
  })

  it('hides a programmer error in production as the envelope does, and shows it in development', async () => {
    const prod = await request(
      app(express, { debug: false, errors: { format: 'problem+json', fallbackMessage: 'Oops' } }),
    ).get('/throw/bug')
    const hidden = JSON.parse(prod.text)
    expect(hidden).toStrictEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: 'Oops',
      instance: '/throw/bug',
      code: 'INTERNAL_ERROR',
      requestId: prod.headers['x-request-id'],
    })
    expect(prod.text).not.toContain('db down')
    const dev = await request(
      app(express, { debug: true, errors: { format: 'problem+json' } }),
    ).get('/throw/bug')
    const shown = JSON.parse(dev.text)
    expect(shown.detail).toBe('db down')
    expect(shown.details).toMatch(/^Error: db down\n {4}at /)
  })

  it('names each issue and its request part in errors', async () => {
    const format: ErrorFormat = 'problem+json'
    const problems = app(express, { errors: { format } })
    const query: ProblemDetails = JSON.parse(
      (await request(problems).get('/search?q=toolong')).text,
    )
    expect(query.errors).toEqual([{ field: 'q', message: expect.any(String), in: 'query' }])
    const body = JSON.parse((await postUsers(problems, '{}')).text)
    expect(body.errors).toEqual([{ field: 'name', message: expect.any(String), in: 'body' }])
  })

  it('answers res.fail in the format, details as members', async () => {
    const res = await request(app(express, { errors: { format: 'problem+json' } })).get('/fail')
    expect([res.status, res.headers['content-type']]).toEqual([409, PROBLEM])
    expect(JSON.parse(res.text)).toStrictEqual({
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      detail: 'Out of stock',
      instance: '/fail',
      code: 'OUT_OF_STOCK',
      requestId: res.headers['x-request-id'],
      sku: 'A-1',
    })
  })

  it('gives each code its own type under errors.problemTypeBase', async () => {
    const base = 'https://api.example.com/problems/'
    const problems = app(express, { errors: { format: 'problem+json', problemTypeBase: base } })
    expect(JSON.parse((await request(problems).get('/nowhere')).text).type).toBe(`${base}not-found`)
    expect(JSON.parse((await postUsers(problems, '{}')).text).type).toBe(`${base}validation-error`)
  })

  it('leaves requestId out when request IDs are disabled', async () => {
    const res = await request(
      app(express, { requestId: { enabled: false }, errors: { format: 'problem+json' } }),
    ).get('/nowhere')
    expect(JSON.parse(res.text)).not.toHaveProperty('requestId')
  })

  it('sends the fixed 500 in the format when writing the answer fails', async () => {
    const envelope = await request(app(express)).get('/throw/getter')
    expect([envelope.status, envelope.headers['content-type']]).toEqual([500, JSON_TYPE])
    expect(envelope.body.error.code).toBe('INTERNAL_ERROR')
    const problem = await request(app(express, { errors: { format: 'problem+json' } })).get(
      '/throw/getter',
    )
    expect([problem.status, problem.headers['content-type']]).toEqual([500, PROBLEM])
    expect(JSON.parse(problem.text)).toStrictEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: 'Something went wrong',
      code: 'INTERNAL_ERROR',
    })
  })

  it('writes the path as instance, escaped, without the query string', async () => {
    const problems = app(express, { errors: { format: 'problem+json' } })
    const server = problems.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    try {
      const { port } = server.address() as AddressInfo
      const get = (path: string) =>
        new Promise<{ text: string; type: string | undefined }>((resolve, reject) => {
          const req = httpRequest({ host: '127.0.0.1', port, path }, (res) => {
            let text = ''
            res.setEncoding('latin1')
            res.on('data', (chunk) => {
              text += chunk
            })
            res.on('end', () => resolve({ text, type: res.headers['content-type'] }))
          })
          req.on('error', reject)
          req.end()
        })
      const hostile = await get("/a\"<script>/'x'?token=secret")
      expect(hostile.type).toBe(PROBLEM)
      expect(JSON.parse(hostile.text).instance).toBe("/a%22%3Cscript%3E/'x'")
      expect(hostile.text).not.toContain('secret')
      expect(JSON.parse((await get('//evil.example/x')).text)).not.toHaveProperty('instance')
    } finally {
      server.close()
    }
  })

  it('keeps the envelope byte for byte by default, and for handle() routes without shapeguard()', async () => {
    const strip = (res: request.Response) => ({
      status: res.status,
      type: res.headers['content-type'],
      text: res.text.replace(/req_[0-9a-f]{24}/g, 'req_<id>'),
    })
    for (const c of cases) {
      const byDefault = strip(await c.send(app(express)))
      const explicit = strip(await c.send(app(express, { errors: { format: 'envelope' } })))
      expect(explicit, c.code).toEqual(byDefault)
    }
    const bare = express()
    bare.use(express.json())
    bare.post(
      '/users',
      ...handle({ body: z.object({ name: z.string() }) }, (_req, res) => res.ok()),
    )
    bare.use(errorHandler())
    const res = await request(bare).post('/users').send({})
    expect([res.status, res.headers['content-type']]).toEqual([422, JSON_TYPE])
    expect(res.body.error.code).toBe('VALIDATION_ERROR')
  })
})

// A GitHub-style signature, to show a good delivery still passes in problem mode.
it('lets a verified webhook through in problem mode', async () => {
  const [, express] = hosts[1]
  const problems = app(express, { errors: { format: 'problem+json' } })
  const body = '{"id":"evt_1"}'
  const t = now()
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')
  const res = await request(problems)
    .post('/hooks/stripe')
    .type('json')
    .set('Stripe-Signature', `t=${t},v1=${v1}`)
    .send(body)
  expect(res.status).toBe(201)
})

// An error raised before any request reached shapeguard() (a body parser's 400 on a fresh
// process, a path outside shapeguard()'s mount) is answered in the app's format all the same.
describe.each(hosts)('%s, before the first request reaches shapeguard()', (_, express) => {
  const fresh = (mount?: string) => {
    const a = express()
    a.use(express.json())
    const guard = shapeguard({ errors: { format: 'problem+json' } })
    if (mount === undefined) a.use(guard)
    else a.use(mount, guard)
    a.post('/users', (_req, res) => res.status(201).json({ ok: true }))
    a.use(errorHandler())
    return a
  }

  it('answers a malformed body in problem details on a fresh app', async () => {
    const res = await request(fresh())
      .post('/users')
      .set('Content-Type', 'application/json')
      .send('{bad')
    expect(res.status).toBe(400)
    expect(res.headers['content-type']).toBe(PROBLEM)
    expect(res.body).toMatchObject({ status: 400, title: 'Bad Request' })
  })

  it('answers outside a mounted shapeguard() in its format, inside a sub-app too', async () => {
    const res = await request(fresh('/api'))
      .post('/users')
      .set('Content-Type', 'application/json')
      .send('{bad')
    expect(res.headers['content-type']).toBe(PROBLEM)
    const parent = express()
    parent.use('/v1', fresh())
    const inner = await request(parent)
      .post('/v1/users')
      .set('Content-Type', 'application/json')
      .send('{bad')
    expect(inner.headers['content-type']).toBe(PROBLEM)
  })

  it('keeps the envelope for an app without shapeguard()', async () => {
    const a = express()
    a.use(express.json())
    a.use(errorHandler())
    const res = await request(a).post('/x').set('Content-Type', 'application/json').send('{bad')
    expect(res.status).toBe(400)
    expect(res.headers['content-type']).toBe(JSON_TYPE)
  })
})
