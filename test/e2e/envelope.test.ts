import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  configureLogger,
  errorHandler,
  type ShapeguardConfig,
  shapeguard,
  withShape,
} from '../../src/index.js'
import { captureLogger, type Express, hosts, withLogging } from '../support/e2e.js'

// The request logger would write every request to stdout; errors are checked through the
// loggers each test passes, which errorHandler writes to directly when no request logger watches.
beforeAll(() => {
  configureLogger({ silent: true })
})

function appWith(express: Express, config: ShapeguardConfig = {}) {
  const app = express()
  app.use(express.json())
  app.use(shapeguard(config))
  return app
}

describe.each(hosts)('response helpers on %s', (_, express) => {
  it('ok sends the success envelope with an empty default message', async () => {
    const app = appWith(express)
    app.get('/user', (_req, res) => res.ok({ data: { id: 1 } }))
    const res = await request(app).get('/user')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, message: '', data: { id: 1 } })
  })

  it('ok follows the default status per method: POST 201, the others 200', async () => {
    const app = appWith(express)
    app.all('/x', (_req, res) => res.ok({ data: 1 }))
    expect((await request(app).post('/x')).status).toBe(201)
    for (const method of ['get', 'put', 'patch', 'delete'] as const) {
      expect((await request(app)[method]('/x')).status).toBe(200)
    }
  })

  it('ok takes response.statusCodes, and a per-call status over both', async () => {
    const app = appWith(express, { response: { statusCodes: { POST: 200, DELETE: 202 } } })
    app.post('/x', (_req, res) => res.ok({ data: 1 }))
    app.delete('/x', (_req, res) => res.ok({ data: 1 }))
    app.put('/x', (_req, res) => res.ok({ data: 1, status: 203 }))
    expect((await request(app).post('/x')).status).toBe(200)
    expect((await request(app).delete('/x')).status).toBe(202)
    expect((await request(app).put('/x')).status).toBe(203)
  })

  it('ok without data sends data: null', async () => {
    const app = appWith(express)
    app.get('/x', (_req, res) => res.ok({ message: 'done' }))
    expect((await request(app).get('/x')).body).toEqual({
      success: true,
      message: 'done',
      data: null,
    })
  })

  it('created is 201 and accepted 202 whatever the configuration says', async () => {
    const app = appWith(express, { response: { statusCodes: { POST: 200 } } })
    app.post('/created', (_req, res) => res.created({ data: { id: 2 }, message: 'Created' }))
    app.post('/accepted', (_req, res) => res.accepted({ data: { job: 'j1' } }))
    const created = await request(app).post('/created')
    expect(created.status).toBe(201)
    expect(created.body).toEqual({ success: true, message: 'Created', data: { id: 2 } })
    const accepted = await request(app).post('/accepted')
    expect(accepted.status).toBe(202)
    expect(accepted.body.data).toEqual({ job: 'j1' })
  })

  it('noContent is 204 with no body', async () => {
    const app = appWith(express)
    app.delete('/x', (_req, res) => res.noContent())
    const res = await request(app).delete('/x')
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
  })

  it('paginated computes pages', async () => {
    const app = appWith(express)
    app.get('/items', (_req, res) =>
      res.paginated({ data: [{ id: 1 }], total: 45, page: 2, limit: 10, message: 'Page 2' }),
    )
    const res = await request(app).get('/items')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      success: true,
      message: 'Page 2',
      data: { items: [{ id: 1 }], total: 45, page: 2, limit: 10, pages: 5 },
    })
  })

  it('paginated with no items has zero pages', async () => {
    const app = appWith(express)
    app.get('/items', (_req, res) => res.paginated({ data: [], total: 0, page: 1, limit: 20 }))
    expect((await request(app).get('/items')).body.data.pages).toBe(0)
  })

  it('cursorPaginated sends prevCursor null by default and total only when given', async () => {
    const app = appWith(express)
    app.get('/a', (_req, res) =>
      res.cursorPaginated({ data: [1], nextCursor: 'c2', hasMore: true }),
    )
    app.get('/b', (_req, res) =>
      res.cursorPaginated({
        data: [],
        nextCursor: null,
        prevCursor: 'c1',
        hasMore: false,
        total: 7,
        message: 'end',
      }),
    )
    expect((await request(app).get('/a')).body).toEqual({
      success: true,
      message: '',
      data: { items: [1], nextCursor: 'c2', prevCursor: null, hasMore: true },
    })
    expect((await request(app).get('/b')).body).toEqual({
      success: true,
      message: 'end',
      data: { items: [], nextCursor: null, prevCursor: 'c1', hasMore: false, total: 7 },
    })
  })

  it('fail sends the error envelope, 400 and details null by default', async () => {
    const app = appWith(express)
    app.get('/a', (_req, res) => res.fail({ code: 'BAD_COUPON', message: 'Coupon expired' }))
    app.get('/b', (_req, res) =>
      res.fail({ code: 'LOCKED', message: 'Locked', status: 423, details: { until: 'noon' } }),
    )
    const a = await request(app).get('/a')
    expect(a.status).toBe(400)
    expect(a.body).toEqual({
      success: false,
      message: 'Coupon expired',
      error: { code: 'BAD_COUPON', message: 'Coupon expired', details: null },
    })
    const b = await request(app).get('/b')
    expect(b.status).toBe(423)
    expect(b.body.error.details).toEqual({ until: 'noon' })
  })
})

describe.each(hosts)('response.shape on %s', (_, express) => {
  const shape = { ok: '{success}', result: '{data}', msg: '{message}' } as const

  it('renames the fields of every success response', async () => {
    const app = appWith(express, { response: { shape } })
    app.get('/x', (_req, res) => res.ok({ data: [1], message: 'hi' }))
    app.get('/p', (_req, res) => res.paginated({ data: [1], total: 1, page: 1, limit: 1 }))
    expect((await request(app).get('/x')).body).toEqual({ ok: true, result: [1], msg: 'hi' })
    expect((await request(app).get('/p')).body.result.pages).toBe(1)
  })

  it('keeps the error code under a renamed shape, from fail and from errorHandler', async () => {
    const app = appWith(express, { response: { shape } })
    app.get('/fail', (_req, res) => res.fail({ code: 'NOPE', message: 'No' }))
    app.get('/throw', () => {
      throw new Error('boom')
    })
    app.use(errorHandler({ logger: captureLogger(), debug: false }))
    expect((await request(app).get('/fail')).body).toEqual({
      ok: false,
      msg: 'No',
      error: { code: 'NOPE', message: 'No', details: null },
    })
    const thrown = await request(app).get('/throw')
    expect(thrown.status).toBe(500)
    expect(thrown.body).toEqual({
      ok: false,
      msg: 'Something went wrong',
      error: { code: 'INTERNAL_ERROR', message: 'Something went wrong', details: null },
    })
  })

  it('rejects a value that is not a token when mounted', () => {
    expect(() => shapeguard({ response: { shape: { ok: '{succes}' as never } } })).toThrow(
      /response\.shape\.ok/,
    )
  })

  it('is scoped to its own app: two apps in one process do not share it', async () => {
    const renamed = appWith(express, { response: { shape } })
    const plain = appWith(express)
    renamed.get('/x', (_req, res) => res.ok({ data: 1 }))
    plain.get('/x', (_req, res) => res.ok({ data: 1 }))
    const [a, b] = await Promise.all([request(renamed).get('/x'), request(plain).get('/x')])
    expect(a.body).toEqual({ ok: true, result: 1, msg: '' })
    expect(b.body).toEqual({ success: true, message: '', data: 1 })
  })
})

describe.each(hosts)('withShape on %s', (_, express) => {
  it('builds the body from {data.<path>} tokens', async () => {
    const app = appWith(express)
    app.get(
      '/me',
      withShape({
        id: '{data.user.id}',
        first: '{data.tags.0}',
        ok: '{success}',
        note: '{message}',
      }),
      (_req, res) => res.ok({ data: { user: { id: 7 }, tags: ['a', 'b'] }, message: 'm' }),
    )
    expect((await request(app).get('/me')).body).toEqual({ id: 7, first: 'a', ok: true, note: 'm' })
  })

  it("'raw' sends the data alone", async () => {
    const app = appWith(express)
    app.get('/raw', withShape('raw'), (_req, res) => res.ok({ data: [1, 2] }))
    expect((await request(app).get('/raw')).body).toEqual([1, 2])
  })

  it('wins over the global shape on its route only', async () => {
    const app = appWith(express, { response: { shape: { result: '{data}' } } })
    app.get('/route', withShape({ value: '{data.v}' }), (_req, res) => res.ok({ data: { v: 1 } }))
    app.get('/other', (_req, res) => res.ok({ data: { v: 1 } }))
    expect((await request(app).get('/route')).body).toEqual({ value: 1 })
    expect((await request(app).get('/other')).body).toEqual({ result: { v: 1 } })
  })

  it('leaves error responses in the error envelope', async () => {
    const app = appWith(express)
    app.get('/x', withShape('raw'), (_req, res) => res.fail({ code: 'NO', message: 'no' }))
    expect((await request(app).get('/x')).body.error.code).toBe('NO')
  })

  it('warns once in development for a token that resolves to nothing', async () => {
    const logger = captureLogger()
    const app = appWith(express, {
      debug: true,
      logger: { instance: logger },
      warnings: { missingResponseSchema: false },
    })
    app.get('/x', withShape({ name: '{data.nmae}' }), (_req, res) =>
      res.ok({ data: { name: 'a' } }),
    )
    const res = await withLogging(async () => {
      const first = await request(app).get('/x')
      await request(app).get('/x')
      return first
    })
    expect(res.body).toEqual({})
    const warnings = logger.records.filter((r) => r.level === 'warn')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]?.message).toContain('{data.nmae}')
  })

  it('does not warn in production', async () => {
    const logger = captureLogger()
    const app = appWith(express, { debug: false, logger: { instance: logger } })
    app.get('/x', withShape({ name: '{data.nmae}' }), (_req, res) => res.ok({ data: {} }))
    await withLogging(() => request(app).get('/x'))
    expect(logger.records).toEqual([])
  })

  it('rejects an unknown token when the route is defined', () => {
    expect(() => withShape({ id: '{body.id}' })).toThrow(/withShape\(\): field "id"/)
  })
})
