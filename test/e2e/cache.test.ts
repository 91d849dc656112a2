import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  AppError,
  type CacheOptions,
  configureLogger,
  errorHandler,
  handle,
  shapeguard,
  validate,
} from '../../src/index.js'
import { cacheControl } from '../../src/runtime/response/cache-control.js'
import { type Express, hosts } from '../support/e2e.js'

beforeAll(() => {
  configureLogger({ silent: true })
})

describe('cacheControl: the Cache-Control header of each option', () => {
  it.each<[CacheOptions, string]>([
    [{ maxAge: 60 }, 'public, max-age=60'],
    [{ maxAge: 60, private: true }, 'private, max-age=60'],
    [
      { maxAge: 60, sMaxAge: 300, staleWhileRevalidate: 30 },
      'public, max-age=60, s-maxage=300, stale-while-revalidate=30',
    ],
    [{ noStore: true }, 'no-store'],
    [{ noStore: true, maxAge: 60 }, 'no-store'],
    [{ maxAge: 0 }, 'public, max-age=0'],
    [
      { maxAge: 10, private: true, staleWhileRevalidate: 5 },
      'private, max-age=10, stale-while-revalidate=5',
    ],
  ])('%j → %s', (options, header) => {
    expect(cacheControl(options)).toBe(header)
  })

  it.each<[unknown, RegExp]>([
    [{}, /cache: needs maxAge \(seconds\), or noStore: true/],
    [{ noStore: false }, /cache: needs maxAge/],
    [{ maxAge: -1 }, /cache.maxAge: must be a whole number of seconds, 0 or more/],
    [{ maxAge: 1.5 }, /cache.maxAge: must be a whole number/],
    [{ maxAge: Number.POSITIVE_INFINITY }, /cache.maxAge: must be a whole number/],
    [{ maxAge: 60, sMaxAge: -5 }, /cache.sMaxAge: must be/],
    [{ maxAge: 60, private: true, sMaxAge: 60 }, /sMaxAge: is for shared caches/],
    [{ noStore: true, private: true }, /noStore: means nothing may keep the answer/],
    [{ noStore: true, sMaxAge: 5 }, /noStore: means nothing may keep the answer/],
    [{ maxAge: 60, private: 'yes' }, /cache.private: must be a boolean/],
    [{ maxAge: 60, maxage: 5 }, /cache: maxage is not an option/],
    [{ maxAge: 60, vary: [] }, /cache.vary: must be a non-empty list of header names/],
    [{ maxAge: 60, vary: ['Accept Language'] }, /cache.vary: must be/],
    [{ maxAge: 60, vary: 'Accept-Language' }, /cache.vary: must be/],
  ])('rejects %j when the route is defined', (options, message) => {
    expect(() => validate({ cache: options as CacheOptions })).toThrow(message)
  })
})

function cachedApp(express: Express, cache: CacheOptions) {
  const app = express()
  app.use(shapeguard({ debug: false }))
  app.get(
    '/items/:id',
    ...handle({ params: z.object({ id: z.coerce.number().int() }), cache }, (req, res) => {
      if (req.params.id === 0) throw AppError.notFound('Item')
      if (req.params.id === 13) throw new Error('boom')
      if (req.params.id === 7) return res.fail({ code: 'GONE', message: 'Gone', status: 410 })
      if (req.params.id === 3) return res.redirect(302, '/items/4')
      res.ok({ data: { id: req.params.id } })
    }),
  )
  app.get('/limited', validate({ cache, rateLimit: { windowMs: 60_000, max: 0 } }), (_q, res) =>
    res.ok({ data: null }),
  )
  app.use(errorHandler())
  return app
}

describe.each(hosts)('%s: per-route cache', (_name, express) => {
  it('sets Cache-Control on a successful answer', async () => {
    const res = await request(cachedApp(express, { maxAge: 60 })).get('/items/1')
    expect(res.status).toBe(200)
    expect(res.headers['cache-control']).toBe('public, max-age=60')
  })

  it.each([
    ['a 422', '/items/abc', 422],
    ['an AppError thrown by the handler', '/items/0', 404],
    ['a programmer error thrown by the handler', '/items/13', 500],
    ['res.fail', '/items/7', 410],
    ['a redirect', '/items/3', 302],
    ['a 429', '/limited', 429],
  ])('never sets it on %s', async (_what, url, status) => {
    const res = await request(cachedApp(express, { maxAge: 60, vary: ['Accept-Language'] })).get(
      url,
    )
    expect(res.status).toBe(status)
    expect(res.headers['cache-control']).toBeUndefined()
    expect(res.headers.vary ?? '').not.toContain('Accept-Language')
  })

  it('adds the vary fields to Vary', async () => {
    const res = await request(
      cachedApp(express, { maxAge: 60, private: true, vary: ['Accept-Language', 'Cookie'] }),
    ).get('/items/1')
    expect(res.headers['cache-control']).toBe('private, max-age=60')
    expect(res.headers.vary).toBe('Accept-Language, Cookie')
  })

  it("answers a conditional GET with Express's 304, which repeats Cache-Control", async () => {
    const app = cachedApp(express, { maxAge: 60, sMaxAge: 600 })
    const first = await request(app).get('/items/1')
    const etag = first.headers.etag
    expect(etag).toMatch(/^W\/"/)
    const again = await request(app)
      .get('/items/1')
      .set('If-None-Match', etag as string)
    expect(again.status).toBe(304)
    expect(again.headers['cache-control']).toBe('public, max-age=60, s-maxage=600')
    expect(again.text).toBe('')
  })

  it('keeps a Cache-Control the handler set itself', async () => {
    const app = express()
    app.get('/own', validate({ cache: { maxAge: 60 } }), (_req, res) => {
      res.setHeader('Cache-Control', 'no-cache')
      res.json({ ok: true })
    })
    expect((await request(app).get('/own')).headers['cache-control']).toBe('no-cache')
  })
})
