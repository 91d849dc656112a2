import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { errorHandler, handle, type ShapeguardConfig, shapeguard } from '../../src/index.js'
import { configureLogger } from '../../src/runtime/logging/logger.js'
import { type Express, hosts, rawPost } from '../support/e2e.js'

// The guards as the pipeline runs them (handle()), on what reaches a real Express app: route
// params, the query under the app's and the route's limits, messages that embed a query key, and
// bodies the host's parser did or did not parse.

beforeAll(() => {
  configureLogger({ silent: true })
})

const Body = z.object({ a: z.number() })

function appWith(
  express: Express,
  config: ShapeguardConfig,
  parsers: (app: ReturnType<Express>) => void,
) {
  const app = express()
  app.use(shapeguard(config))
  parsers(app)
  app.get(
    '/f/:id',
    ...handle({ params: z.object({ id: z.string() }) }, (req, res) => res.ok({ data: req.params })),
  )
  app.get('/g/:id', ...handle({}, (req, res) => res.ok({ data: { id: req.params.id ?? null } })))
  app.get(
    '/q',
    ...handle({ query: z.object({ q: z.string().optional() }) }, (req, res) =>
      res.ok({ data: { length: req.query.q?.length ?? 0 } }),
    ),
  )
  app.get(
    '/big',
    ...handle(
      { query: z.object({ q: z.string() }), limits: { maxStringLength: 20000 } },
      (req, res) => res.ok({ data: { length: req.query.q.length } }),
    ),
  )
  app.post('/items', ...handle({ body: Body }, (req, res) => res.created({ data: req.body })))
  app.post('/free', ...handle({}, (_req, res) => res.created({ data: null })))
  app.use(errorHandler())
  return app
}

// Any C0 or C1 control character (a newline starts a forged log line, ESC a terminal sequence).
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const control = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

describe.each(hosts)('guards in the pipeline on %s', (host, express) => {
  const app = appWith(express, {}, (a) => {
    a.use(express.json())
    a.use(express.urlencoded({ extended: false }))
  })

  it('sanitises route params like query strings, with or without a params schema', async () => {
    const typed = await request(app).get('/f/a%00b%E2%80%AEc%E2%80%8B?x=a%00b%E2%80%AEc')
    expect(typed.status).toBe(200)
    expect(typed.body.data).toEqual({ id: 'abc' })
    const untyped = await request(app).get('/g/%EF%BB%BFad%E2%81%A6a')
    expect([untyped.status, untyped.body.data]).toEqual([200, { id: 'ada' }])
    const clean = await request(app).get('/g/caf%C3%A9%20%F0%9F%98%80')
    expect(clean.body.data).toEqual({ id: 'café 😀' })
  })

  it('holds route params to the string limit, a wildcard segment included', async () => {
    const strict = appWith(express, { validation: { limits: { maxStringLength: 5 } } }, () => {})
    expect((await request(strict).get('/g/12345')).status).toBe(200)
    // Counted after decoding, in code points: five emoji are five characters.
    expect((await request(strict).get(`/g/${'%F0%9F%98%80'.repeat(5)}`)).status).toBe(200)
    for (const path of ['/g/123456', '/f/123456']) {
      const long = await request(strict).get(path)
      expect([long.status, long.body.error.code, long.body.error.details]).toEqual([
        400,
        'STRING_TOO_LONG',
        { maxStringLength: 5 },
      ])
      expect(long.body.error.message).toBe('Params contains a string longer than 5 characters')
    }
    const splat = express()
    splat.use(shapeguard({ validation: { limits: { maxStringLength: 3 } } }))
    const path = host === 'express 5' ? '/w/*rest' : '/w/*'
    splat.get(path, ...handle({}, (req, res) => res.ok({ data: req.params })))
    splat.use(errorHandler())
    // Express 5 checks each segment ('bcde' is 4 characters), Express 4 its one string ('a/bcde').
    expect((await request(splat).get('/w/a/bcde')).body.error.code).toBe('STRING_TOO_LONG')
    expect((await request(splat).get('/w/a/b')).status).toBe(200)
  })

  it('holds the query to the limits the app and the route set', async () => {
    const strict = appWith(express, { validation: { limits: { maxStringLength: 5 } } }, () => {})
    expect((await request(strict).get('/q?q=12345')).status).toBe(200)
    const long = await request(strict).get('/q?q=1234567890')
    expect([long.status, long.body.error.code, long.body.error.details]).toEqual([
      400,
      'STRING_TOO_LONG',
      { maxStringLength: 5 },
    ])
    expect(long.body.error.message).toBe('Query contains a string longer than 5 characters')
    const wide = await request(app).get(`/big?q=${'x'.repeat(12000)}`)
    expect([wide.status, wide.body.data]).toEqual([200, { length: 12000 }])
    const over = await request(app).get(`/q?q=${'x'.repeat(12000)}`)
    expect([over.status, over.body.error.details]).toEqual([400, { maxStringLength: 10000 }])
  })

  it('quotes a repeated query key in the message, control characters escaped', async () => {
    // No '[': Express 4's qs reads one in a key as nesting (ESC c resets a terminal all the same).
    const key = 'x\n12:00:00 INFO << 200 GET /admin 1ms\u001bc\u0085'
    const encoded = encodeURIComponent(key)
    const res = await request(app).get(`/q?${encoded}=1&${encoded}=2`)
    expect([res.status, res.body.error.code]).toEqual([400, 'PARAM_POLLUTION'])
    expect(res.body.error.message).toBe(
      'Query parameter "x\\n12:00:00 INFO << 200 GET /admin 1ms\\u001bc\\u0085" must not be repeated',
    )
    expect(res.body.error.message).not.toMatch(control)
    expect(res.body.message).not.toMatch(control)
    expect(res.body.error.details).toEqual({ param: key })
    if (host === 'express 5') {
      const csi = await request(app).get('/q?x%0A%1B%5B2J=1&x%0A%1B%5B2J=2')
      expect(csi.body.error.message).toBe('Query parameter "x\\n\\u001b[2J" must not be repeated')
    }
    const plain = await request(app).get('/q?sort=a&sort=b')
    expect(plain.body.error.message).toBe('Query parameter "sort" must not be repeated')
  })

  it('answers 415 to a JSON-like or form body the app has no parser for', async () => {
    const vnd = await request(app)
      .post('/items')
      .set('Content-Type', 'application/vnd.api+json')
      .send('{"a":1}')
    expect([vnd.status, vnd.body.error.code]).toEqual([415, 'INVALID_CONTENT_TYPE'])
    expect(vnd.body.error.message).toBe(
      'This API does not parse this +json media type on this route',
    )
    expect(vnd.body.error.details).toEqual({
      allowed: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
    })
    expect(vnd.text).not.toContain('vnd.api')
    const bare = appWith(express, {}, () => {})
    const json = await request(bare)
      .post('/free')
      .set('Content-Type', 'application/json')
      .send('{}')
    expect([json.status, json.body.error.code]).toEqual([415, 'INVALID_CONTENT_TYPE'])
    const form = await request(bare).post('/free').type('form').send('a=1')
    expect([form.status, form.body.error.code]).toEqual([415, 'INVALID_CONTENT_TYPE'])
  })

  it('passes what the parsers parsed, +json with a parser for it, and multipart', async () => {
    expect((await request(app).post('/items').send({ a: 1 })).status).toBe(201)
    expect((await request(app).post('/free').type('form').send('a=1')).status).toBe(201)
    const vndApp = appWith(express, {}, (a) => {
      a.use(express.json({ type: ['application/json', 'application/*+json'] }))
    })
    const vnd = await request(vndApp)
      .post('/items')
      .set('Content-Type', 'application/vnd.api+json; charset=utf-8')
      .send('{"a":1}')
    expect([vnd.status, vnd.body.data]).toEqual([201, { a: 1 }])
    const raw = appWith(express, {}, (a) => {
      a.use(express.raw({ type: 'application/json' }))
    })
    expect((await request(raw).post('/free').send({ a: 1 })).status).toBe(201)
    // Multipart parsers (multer, busboy) run in the route or not at all: never a 415 here.
    const multipart = await request(app)
      .post('/free')
      .set('Content-Type', 'multipart/form-data; boundary=x')
      .send('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n')
    expect(multipart.status).toBe(201)
  })

  it('counts Content-Length: 00 as no body, in the content-type guard and the body step', async () => {
    const res = await rawPost(app, '/items', { 'Content-Length': '00' }, '')
    expect([res.status, res.body.error.code, res.body.error.details]).toEqual([
      422,
      'VALIDATION_ERROR',
      { field: 'body', message: 'body is required' },
    ])
    const typed = await rawPost(
      app,
      '/items',
      { 'Content-Length': '00', 'Content-Type': 'text/plain' },
      '',
    )
    expect(typed.body.error.details).toEqual({ field: 'body', message: 'body is required' })
  })

  it('sanitises a wildcard param (Express 5: an array of segments; Express 4: one string)', async () => {
    const splat = express()
    splat.use(shapeguard())
    const path = host === 'express 5' ? '/w/*rest' : '/w/*'
    splat.get(path, ...handle({}, (req, res) => res.ok({ data: req.params })))
    splat.use(errorHandler())
    const res = await request(splat).get('/w/a%00/b%E2%80%8B/c')
    expect(res.body.data).toEqual(host === 'express 5' ? { rest: ['a', 'b', 'c'] } : { 0: 'a/b/c' })
  })
})
