import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { configureLogger, errorHandler, handle, shapeguard, validate } from '../../src/index.js'
import { type Express, hosts } from '../support/e2e.js'

// `req.id`, and a guarded query on Express 5 (where `req.query` is a getter that parses the URL),
// are own properties of the request: each is the request's own value, in whatever app the request
// is when it is read.
beforeAll(() => {
  configureLogger({ silent: true })
})

const Page = z.object({ page: z.coerce.number().int().min(1).default(1) })

describe.each(hosts)('the guarded query on %s', (name, express: Express) => {
  it('reaches the handler; a plain route of the same app still reads its own query', async () => {
    const app = express()
    app.use(shapeguard())
    app.get(
      '/guarded',
      ...handle({ query: Page }, async (req, res) => {
        res.ok({ data: { query: req.query, own: Object.hasOwn(req, 'query') } })
      }),
    )
    app.get('/plain', (req, res) => {
      res.json({ query: req.query })
    })
    app.use(errorHandler())
    for (let i = 0; i < 2; i++) {
      const guarded = await request(app).get('/guarded?page=3&extra=x')
      expect(guarded.body.data.query).toEqual({ page: 3 })
      // Express 4's query is always an own property; Express 5's guarded one is one too.
      expect(guarded.body.data.own).toBe(true)
      expect((await request(app).get('/plain?page=3&extra=x')).body).toEqual({
        query: { page: '3', extra: 'x' },
      })
    }
    expect((await request(app).get('/guarded')).body.data.query).toEqual({ page: 1 })
    expect((await request(app).get('/guarded?page=0')).status).toBe(422)
  })

  it('reaches a guarded route of a mounted sub-app, and the parent app after it', async () => {
    const app = express()
    const sub = express()
    sub.use(shapeguard())
    sub.get(
      '/items',
      ...handle({ query: Page }, async (req, res) => {
        res.ok({ data: req.query })
      }),
    )
    sub.use(errorHandler())
    app.use('/sub', sub)
    app.get('/items', (req, res) => {
      res.json({ query: req.query })
    })
    for (let i = 0; i < 2; i++) {
      expect((await request(app).get('/sub/items?page=2')).body.data).toEqual({ page: 2 })
      expect((await request(app).get('/items?page=2')).body).toEqual({ query: { page: '2' } })
    }
  })

  it('stays guarded in an app called from a middleware (vhost style) or mounted twice', async () => {
    const Small = z.object({ page: z.coerce.number().max(10) })
    const outer = express()
    const inner = express()
    inner.get('/x', (req, res) => {
      res.json({ query: req.query, id: req.id ?? null })
    })
    outer.use(shapeguard())
    outer.use('/api', validate({ query: Small }), (req, res, next) => inner(req, res, next))
    const sub = express()
    sub.get('/x', (req, res) => {
      res.json({ query: req.query, id: req.id ?? null })
    })
    const first = express()
    const second = express()
    first.use(shapeguard())
    second.use(shapeguard())
    first.use('/s', validate({ query: Small }), sub)
    second.use('/s', validate({ query: Small }), sub)
    for (const app of [outer, first, second]) {
      const path = app === outer ? '/api/x' : '/s/x'
      for (let i = 0; i < 2; i++) {
        const res = await request(app).get(`${path}?page=3&evil[$ne]=1`).set('x-request-id', 'abc')
        expect(res.body).toEqual({ query: { page: 3 }, id: 'abc' })
      }
    }
  })

  it('leaves req.query as writable as the host has it, on every request', async () => {
    // Express 5's query is a getter without a setter, and the guarded one is read only too;
    // Express 4's is an own property a handler may replace.
    const app = express()
    app.use(shapeguard())
    app.get(
      '/guarded',
      ...handle({ query: Page }, async (req, res) => {
        let threw = false
        try {
          ;(req as { query: unknown }).query = { page: 9 }
        } catch (err) {
          threw = err instanceof TypeError
        }
        res.ok({ data: { threw, query: req.query } })
      }),
    )
    app.use(errorHandler())
    const express5 = name !== 'express 4'
    for (let i = 0; i < 2; i++) {
      expect((await request(app).get('/guarded?page=2')).body.data).toEqual({
        threw: express5,
        query: { page: express5 ? 2 : 9 },
      })
    }
  })

  it("validates what an app's own query getter answers, and hands on the guarded value", async () => {
    // Express 4 writes its own property over any getter: only Express 5 reads one.
    if (name === 'express 4') return
    const app = express()
    // An app that parses its query itself: the guarded value must still reach the handler.
    Object.defineProperty(app.request, 'query', {
      configurable: true,
      get() {
        return { page: '5', from: 'app' }
      },
    })
    app.use(shapeguard())
    app.get(
      '/guarded',
      ...handle({ query: Page }, async (req, res) => {
        res.ok({ data: req.query })
      }),
    )
    app.use(errorHandler())
    for (let i = 0; i < 2; i++) {
      expect((await request(app).get('/guarded?page=1')).body.data).toEqual({ page: 5 })
    }
  })

  it("validates what a sub-app's own query getter answers, in the sub-app only", async () => {
    if (name === 'express 4') return
    const app = express()
    const sub = express()
    app.use(shapeguard())
    const route = handle({ query: Page }, async (req, res) => {
      res.ok({ data: req.query })
    })
    app.get('/guarded', ...route)
    sub.get('/guarded', ...route)
    app.use('/sub', sub)
    app.use(errorHandler())
    // A guarded query before the sub-app has a getter of its own ...
    expect((await request(app).get('/guarded?page=2')).body.data).toEqual({ page: 2 })
    // ... then the sub-app brings its own, which the guarded value must still win over.
    Object.defineProperty(sub.request, 'query', {
      configurable: true,
      get() {
        return { page: '7' }
      },
    })
    for (let i = 0; i < 2; i++) {
      expect((await request(app).get('/sub/guarded?page=3')).body.data).toEqual({ page: 7 })
      expect((await request(app).get('/guarded?page=4')).body.data).toEqual({ page: 4 })
    }
  })
})

describe.each(hosts)('req.id on %s', (_, express: Express) => {
  it("is the request's own property, which another middleware may write", async () => {
    const app = express()
    app.use(shapeguard())
    app.use((req, _res, next) => {
      // Another middleware may set its own ID after shapeguard()'s, as before.
      if (req.headers['x-override'] !== undefined) req.id = 'override-1'
      next()
    })
    app.get('/id', (req, res) => {
      res.ok({ data: { id: req.id, own: Object.hasOwn(req, 'id') } })
    })
    app.use(errorHandler())
    const ids = new Set<string>()
    for (let i = 0; i < 3; i++) {
      const res = await request(app).get('/id')
      expect(res.body.data.own).toBe(true)
      expect(res.body.data.id).toMatch(/^req_[0-9a-f]{24}$/)
      ids.add(res.body.data.id)
    }
    expect(ids.size).toBe(3)
    expect((await request(app).get('/id').set('x-request-id', 'up-1')).body.data.id).toBe('up-1')
    expect((await request(app).get('/id').set('x-override', '1')).body.data.id).toBe('override-1')
  })

  it('is empty when request IDs are disabled, and undefined before shapeguard() ran', async () => {
    const app = express()
    app.get('/before', (req, res) => {
      res.json({ id: req.id ?? null })
    })
    app.use(shapeguard({ requestId: { enabled: false } }))
    app.get('/id', (req, res) => {
      res.ok({ data: req.id })
    })
    for (let i = 0; i < 2; i++) {
      expect((await request(app).get('/id')).body.data).toBe('')
      expect((await request(app).get('/before')).body).toEqual({ id: null })
    }
  })
})
