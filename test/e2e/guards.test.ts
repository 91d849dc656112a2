import fc from 'fast-check'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { configureLogger, errorHandler, handle, shapeguard } from '../../src/index.js'
import {
  checkContentType,
  guardBody,
  guardQuery,
  resolveLimits,
} from '../../src/runtime/guards/index.js'
import { type Express, hosts, rawPost } from '../support/e2e.js'

// validate() is not wired yet: a tiny route calls the guards in the pipeline's order.
beforeAll(() => {
  configureLogger({ silent: true })
})

function guardedApp(
  express: Express,
  limits = resolveLimits(),
  jsonTypes: string | string[] = 'application/json',
) {
  const app = express()
  app.use(shapeguard())
  app.use(express.json({ limit: '1mb', type: jsonTypes }))
  app.use(express.urlencoded({ extended: true }))
  const arrayKeys = new Set(['tag'])
  app.all('/guarded', (req, res) => {
    checkContentType(req)
    const body = guardBody(req.body, limits)
    const query = guardQuery(req.query, arrayKeys, limits)
    res.ok({ data: { body: body ?? null, query: { ...(query as object) } } })
  })
  app.use(errorHandler())
  return app
}

function nested(levels: number): string {
  return '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1)
}

const post = (app: ReturnType<typeof guardedApp>, json: string) =>
  request(app).post('/guarded').set('Content-Type', 'application/json').send(json)

describe.each(hosts)('pre-parse guards on %s', (host, express) => {
  const app = guardedApp(express)

  it('passes a clean body and query through, cleaned', async () => {
    const res = await post(
      app,
      '{"name":"A\\u200bda\\u0000","constructor":{"x":1},"tags":["a\\u202e"]}',
    ).query('tag=x&tag=y&q=sh%E2%80%8Boes')
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({
      body: { name: 'Ada', tags: ['a'] },
      query: { tag: ['x', 'y'], q: 'shoes' },
    })
  })

  it('answers 400 BODY_TOO_DEEP at 21 levels, in the error envelope', async () => {
    expect((await post(app, nested(20))).status).toBe(201)
    const res = await post(app, nested(21))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      success: false,
      message: 'Body is nested deeper than 20 levels',
      error: {
        code: 'BODY_TOO_DEEP',
        message: 'Body is nested deeper than 20 levels',
        details: { maxDepth: 20 },
      },
    })
  })

  it('answers a 100,000-level body with 400, not a crash', async () => {
    const res = await post(app, `${'['.repeat(100_000)}${']'.repeat(100_000)}`)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('BODY_TOO_DEEP')
  })

  it('answers 400 for long arrays and strings, at the route limits', async () => {
    const small = guardedApp(express, resolveLimits({ maxDepth: 5 }, { maxArrayLength: 3 }))
    expect((await post(small, '[1,2,3]')).status).toBe(201)
    const wide = await post(small, '[1,2,3,4]')
    expect([wide.status, wide.body.error.code]).toEqual([400, 'BODY_ARRAY_TOO_LARGE'])
    const long = await post(app, JSON.stringify({ s: 'x'.repeat(10001) }))
    expect([long.status, long.body.error.code]).toEqual([400, 'STRING_TOO_LONG'])
  })

  it('answers 400 PROTO_POLLUTION to a __proto__ key and leaves Object.prototype alone', async () => {
    const res = await post(app, '{"user":{"__proto__":{"polluted":true,"isAdmin":true}}}')
    expect(res.status).toBe(400)
    expect(res.body.error).toEqual({
      code: 'PROTO_POLLUTION',
      message: 'Body must not contain a "__proto__" key',
      details: null,
    })
    const removed = await post(app, '{"constructor":{"prototype":{"polluted":true}}}')
    expect(removed.status).toBe(201)
    expect(removed.body.data.body).toEqual({})
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined()
  })

  it('answers 415 to a body of another type, or with no type', async () => {
    const text = await request(app).post('/guarded').set('Content-Type', 'text/plain').send('hello')
    expect(text.status).toBe(415)
    expect(text.body.success).toBe(false)
    expect(text.body.error.code).toBe('INVALID_CONTENT_TYPE')
    const untyped = await rawPost(app, '/guarded', { 'Content-Length': '5' }, 'hello')
    expect([untyped.status, untyped.body.error.code]).toEqual([415, 'INVALID_CONTENT_TYPE'])
    const chunked = await rawPost(app, '/guarded', { 'Transfer-Encoding': 'chunked' }, 'hello')
    expect([chunked.status, chunked.body.error.code]).toEqual([415, 'INVALID_CONTENT_TYPE'])
  })

  it('lets a POST without a body and without a content type through', async () => {
    const res = await rawPost(app, '/guarded', { 'Content-Length': '0' }, '')
    expect(res.status).toBe(201)
  })

  it('accepts +json (when parsed) and form bodies (the form cleaned too)', async () => {
    // express.json() parses application/json only: a +json body it left unread is a 415.
    const unread = await request(app)
      .post('/guarded')
      .set('Content-Type', 'application/vnd.api+json')
      .send('{}')
    expect([unread.status, unread.body.error.code]).toEqual([415, 'INVALID_CONTENT_TYPE'])
    const vndApp = guardedApp(express, resolveLimits(), ['application/json', 'application/*+json'])
    const vnd = await request(vndApp)
      .post('/guarded')
      .set('Content-Type', 'application/vnd.api+json')
      .send('{"a":"b\\u200b"}')
    expect([vnd.status, vnd.body.data.body]).toEqual([201, { a: 'b' }])
    const form = await request(app)
      .post('/guarded')
      .type('form')
      .send('name=A%E2%80%8Bda&address[city]=Lon%00don')
    expect(form.status).toBe(201)
    expect(form.body.data.body).toEqual({ name: 'Ada', address: { city: 'London' } })
  })

  it('answers 400 PARAM_POLLUTION to a repeated query key the route does not declare', async () => {
    const res = await request(app).get('/guarded?sort=a&sort=b')
    expect(res.status).toBe(400)
    expect(res.body.error).toEqual({
      code: 'PARAM_POLLUTION',
      message: 'Query parameter "sort" must not be repeated',
      details: { param: 'sort' },
    })
    expect((await request(app).get('/guarded?tag=a&tag=b')).status).toBe(200)
  })

  it('never lets a __proto__ query key through', async () => {
    const res = await request(app).get('/guarded?__proto__=x&a[__proto__][polluted]=1')
    // Express 4's qs drops such keys itself; Express 5's querystring keeps them as own keys.
    if (host === 'express 4') {
      expect(res.status).toBe(200)
      expect(Object.keys(res.body.data.query)).not.toContain('__proto__')
    } else {
      expect([res.status, res.body.error.code]).toEqual([400, 'PROTO_POLLUTION'])
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('answers malformed JSON with 400 INVALID_JSON, not 500', async () => {
    const res = await post(app, '{"a":')
    expect([res.status, res.body.error.code]).toEqual([400, 'INVALID_JSON'])
  })

  it('never answers 500 to a hostile JSON body', async () => {
    const key = fc.constantFrom('__proto__', 'constructor', 'prototype', 'a', 'a\u200b', '\u0000')
    const { value } = fc.letrec<{ value: string }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
        fc.integer({ min: 15, max: 25 }).map(nested),
        fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
        fc
          .array(fc.tuple(key, tie('value')), { maxLength: 4 })
          .map((es) => `{${es.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
      ),
    }))
    await fc.assert(
      fc.asyncProperty(value, async (json) => {
        const res = await post(app, json)
        expect([201, 400]).toContain(res.status)
        expect(res.body.success).toBe(res.status === 201)
      }),
      { numRuns: 40 },
    )
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe.each(hosts)('pre-parse guards inside handle() on %s', (_, express) => {
  // The pipeline's own use of the guards: global limits, route limits, array keys from the schema.
  const app = express()
  app.use(shapeguard({ validation: { limits: { maxDepth: 4, maxArrayLength: 3 } } }))
  app.use(express.json())
  app.post(
    '/items',
    ...handle(
      {
        body: z.object({ items: z.array(z.unknown()) }),
        query: z.object({ tag: z.array(z.string()).optional(), sort: z.string().optional() }),
        limits: { maxArrayLength: 5 },
      },
      (req, res) => res.created({ data: req.body }),
    ),
  )
  app.use(errorHandler())

  const send = (body: string, query = '') =>
    request(app).post(`/items${query}`).set('Content-Type', 'application/json').send(body)

  it('merges route limits over the global ones', async () => {
    expect((await send('{"items":[1,2,3,4,5]}')).status).toBe(201)
    expect((await send('{"items":[1,2,3,4,5,6]}')).body.error.code).toBe('BODY_ARRAY_TOO_LARGE')
    expect((await send('{"items":[[[1]]]}')).status).toBe(201)
    const deep = await send('{"items":[[[[1]]]]}')
    expect([deep.status, deep.body.error.details]).toEqual([400, { maxDepth: 4 }])
  })

  it('takes the query keys declared as arrays from the schema', async () => {
    expect((await send('{"items":[]}', '?tag=a&tag=b')).status).toBe(201)
    const res = await send('{"items":[]}', '?sort=a&sort=b')
    expect([res.status, res.body.error.code]).toEqual([400, 'PARAM_POLLUTION'])
  })

  it('rejects __proto__ and wrong content types before the schema runs', async () => {
    const proto = await send('{"items":[],"__proto__":{"polluted":true}}')
    expect([proto.status, proto.body.error.code]).toEqual([400, 'PROTO_POLLUTION'])
    const text = await request(app).post('/items').set('Content-Type', 'text/plain').send('x')
    expect([text.status, text.body.error.code]).toEqual([415, 'INVALID_CONTENT_TYPE'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
