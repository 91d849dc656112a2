import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  configureLogger,
  createRouter,
  errorHandler,
  notFoundHandler,
  shapeguard,
} from '../../src/index.js'
import { captureLogger, type Express, hosts } from '../support/e2e.js'
import { serve } from '../support/serve.js'

// The request logger would write every request to stdout; errors are checked through the
// loggers each test passes, which errorHandler writes to directly when no request logger watches.
beforeAll(() => {
  configureLogger({ silent: true })
})

type Router = ReturnType<typeof createRouter>

function appWith(express: Express, mount: (app: ReturnType<Express>) => void, debug = true) {
  const app = express()
  app.use(shapeguard({ debug }))
  mount(app)
  app.use(notFoundHandler())
  app.use(errorHandler({ logger: captureLogger(), debug }))
  return app
}

const ok = (_req: unknown, res: { ok(o: object): void }) => res.ok({ data: 'hit' })

describe.each(hosts)('createRouter on %s', (_, express) => {
  const make = (options = {}) => createRouter({ Router: express.Router, ...options })

  it('answers 405 with Allow and details.allowed for a registered path', async () => {
    const router = make()
    router.get('/users', ok)
    router.post('/users', ok)
    const app = appWith(express, (a) => a.use(router))
    const res = await request(app).delete('/users')
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD, POST')
    expect(res.body).toEqual({
      success: false,
      message: 'Method DELETE is not allowed on this route',
      error: {
        code: 'METHOD_NOT_ALLOWED',
        message: 'Method DELETE is not allowed on this route',
        details: { allowed: ['GET', 'HEAD', 'POST'] },
      },
    })
  })

  it('sends details.allowed in production too', async () => {
    const router = make()
    router.put('/x', ok)
    const app = appWith(express, (a) => a.use(router), false)
    const res = await request(app).get('/x')
    expect(res.status).toBe(405)
    expect(res.body.error.details).toEqual({ allowed: ['PUT'] })
  })

  it('lets registered methods through', async () => {
    const router = make()
    router.get('/users', ok)
    router.post('/users', ok)
    const app = appWith(express, (a) => a.use(router))
    expect((await request(app).get('/users')).body.data).toBe('hit')
    expect((await request(app).post('/users')).status).toBe(201)
  })

  it('tracks parameterised paths', async () => {
    const router = make()
    router.get('/users/:id', ok)
    router.delete('/users/:id', ok)
    const app = appWith(express, (a) => a.use('/api', router))
    const res = await request(app).patch('/api/users/42')
    expect(res.status).toBe(405)
    expect(res.body.error.details.allowed).toEqual(['GET', 'HEAD', 'DELETE'])
    expect((await request(app).delete('/api/users/42')).status).toBe(200)
  })

  it('tracks route() chains, also methods added after the first', async () => {
    const router = make()
    router.route('/items').get(ok).post(ok)
    router.route('/items').put(ok)
    const app = appWith(express, (a) => a.use(router))
    const res = await request(app).delete('/items')
    expect(res.status).toBe(405)
    expect(res.body.error.details.allowed).toEqual(['GET', 'HEAD', 'POST', 'PUT'])
    expect((await request(app).put('/items')).status).toBe(200)
  })

  it('tracks nested routers, each answering for its own paths', async () => {
    const inner = make({ mergeParams: true })
    inner.get('/comments', (req, res) => res.ok({ data: req.params }))
    const outer = make()
    outer.use('/posts/:postId', inner)
    outer.post('/posts', ok)
    const app = appWith(express, (a) => a.use(outer))
    const nested = await request(app).post('/posts/7/comments')
    expect(nested.status).toBe(405)
    expect(nested.body.error.details.allowed).toEqual(['GET', 'HEAD'])
    expect((await request(app).get('/posts/7/comments')).body.data).toEqual({ postId: '7' })
    const top = await request(app).get('/posts')
    expect(top.status).toBe(405)
    expect(top.body.error.details.allowed).toEqual(['POST'])
  })

  it('allows HEAD wherever GET is, and only there', async () => {
    const router = make()
    router.get('/page', ok)
    router.post('/form', ok)
    const app = appWith(express, (a) => a.use(router))
    expect((await request(app).head('/page')).status).toBe(200)
    const head = await request(app).head('/form')
    expect(head.status).toBe(405)
    expect(head.headers.allow).toBe('POST')
  })

  it('leaves OPTIONS to the host (never 405)', async () => {
    const router = make()
    router.get('/page', ok)
    router.post('/page', ok)
    const app = appWith(express, (a) => a.use(router))
    const res = await request(app).options('/page')
    expect(res.status).toBe(200)
    expect(res.headers.allow?.replace(/\s/g, '')).toBe('GET,HEAD,POST')
  })

  it('never answers 405 on a path registered with all()', async () => {
    const router = make()
    router.all('/any', ok)
    const app = appWith(express, (a) => a.use(router))
    expect((await request(app).patch('/any')).status).toBe(200)
  })

  it('lets an unregistered path fall through to notFoundHandler', async () => {
    const router = make()
    router.get('/users', ok)
    const app = appWith(express, (a) => a.use(router))
    const res = await request(app).get('/nope')
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe('NOT_FOUND')
  })

  it('unions the methods of separate registrations of one path', async () => {
    const router = make()
    router.get('/x', ok)
    router.get('/y', ok)
    router.delete('/x', ok)
    const app = appWith(express, (a) => a.use(router))
    expect((await request(app).post('/x')).body.error.details.allowed).toEqual([
      'GET',
      'HEAD',
      'DELETE',
    ])
  })

  it('passes router options to the host: strict and caseSensitive', async () => {
    const strict = make({ strict: true, caseSensitive: true })
    strict.get('/slash/', ok)
    const app = appWith(express, (a) => a.use(strict))
    expect((await request(app).get('/slash/')).status).toBe(200)
    expect((await request(app).get('/slash')).status).toBe(404)
    expect((await request(app).get('/SLASH/')).status).toBe(404)
    expect((await request(app).post('/slash/')).status).toBe(405)
  })

  it('a handler that passes on with next() is not turned into a 405', async () => {
    const router: Router = make()
    router.get('/maybe', (_req, _res, next) => next())
    const app = appWith(express, (a) => a.use(router))
    expect((await request(app).get('/maybe')).status).toBe(404)
  })

  it("without errorHandler the host's own error handler still answers 405", async () => {
    const router = make()
    router.get('/x', ok)
    const app = express()
    app.use(shapeguard())
    app.use(router)
    app.use(notFoundHandler())
    const res = await request(app).post('/x')
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD')
  })

  it("without notFoundHandler a wrong method gets the host's plain 404", async () => {
    const router = make()
    router.get('/x', ok)
    const app = express()
    app.use(shapeguard())
    app.use(router)
    const res = await request(app).post('/x')
    expect(res.status).toBe(404)
    expect(res.headers.allow).toBeUndefined()
  })

  it('a later createRouter for the same path still runs', async () => {
    const a = make()
    a.get('/items', ok)
    const b = make()
    b.post('/items', (_req, res) => res.status(200).json({ data: 'from b' }))
    const app = appWith(express, (x) => {
      x.use('/api', a)
      x.use('/api', b)
    })
    const res = await request(app).post('/api/items')
    expect(res.status).toBe(200)
    expect(res.body.data).toBe('from b')
    expect(res.headers.allow).toBeUndefined()
    expect((await request(app).get('/api/items')).body.data).toBe('hit')
  })

  it('a later app route for the same path still runs', async () => {
    const c = make()
    c.get('/x', ok)
    const app = appWith(express, (x) => {
      x.use(c)
      x.delete('/x', (_req, res) => res.ok({ data: 'from app' }))
    })
    const res = await request(app).delete('/x')
    expect(res.status).toBe(200)
    expect(res.body.data).toBe('from app')
    expect(res.headers.allow).toBeUndefined()
  })

  it('unions the methods of every createRouter that knows the path', async () => {
    const a = make()
    a.get('/items', ok)
    const b = make()
    b.route('/items').put(ok).post(ok)
    const c = make()
    c.post('/items', ok)
    const app = appWith(express, (x) => {
      x.use('/api', a)
      x.use('/api', b)
      x.use('/api', c)
    })
    const res = await request(app).delete('/api/items')
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD, PUT, POST')
    expect(res.body.error.details.allowed).toEqual(['GET', 'HEAD', 'PUT', 'POST'])
    expect((await request(app).options('/api/items')).status).toBe(200)
  })

  it('answers 405 when a later router matches the path under another method only', async () => {
    const a = make()
    a.get('/items', ok)
    const b = make()
    b.put('/items', ok)
    b.get('/other', ok)
    const app = appWith(express, (x) => {
      x.use(a)
      x.use(b)
    })
    const res = await request(app).patch('/items')
    expect(res.status).toBe(405)
    expect(res.body.error.details.allowed).toEqual(['GET', 'HEAD', 'PUT'])
    expect((await request(app).patch('/other')).body.error.details.allowed).toEqual(['GET', 'HEAD'])
    expect((await request(app).patch('/none')).status).toBe(404)
  })

  it('a later route that passes on with next() leads to the 405', async () => {
    const c = make()
    c.get('/x', ok)
    const app = appWith(express, (x) => {
      x.use(c)
      x.use((_req, _res, next) => next())
    })
    const res = await request(app).put('/x')
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD')
  })

  it('errors thrown by routes still reach the error middleware', async () => {
    const router = make()
    router.get('/x', () => {
      throw new Error('route broke')
    })
    const app = appWith(express, (a) => a.use(router), false)
    const res = await request(app).get('/x')
    expect(res.status).toBe(500)
    expect(res.body.error.code).toBe('INTERNAL_ERROR')
  })
})

describe.each(hosts)('createRouter route table on %s', (_, express) => {
  const make = (options = {}) => createRouter({ Router: express.Router, ...options })
  const big = (size = 1000) => {
    const router = make()
    for (let i = 0; i < size; i++)
      router.get(`/r${i}/:id`, (req, res) => res.ok({ data: [i, req.params] }))
    return router
  }

  it('reaches the last of 1,000 routes with its params, and answers 405 for its path', async () => {
    const router = big()
    router.post('/r999/:id', ok)
    const app = appWith(express, (a) => a.use('/api', router))
    expect((await request(app).get('/api/R999/7/')).body.data).toEqual([999, { id: '7' }])
    const res = await request(app).delete('/api/r999/7')
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD, POST')
    expect((await request(app).get('/api/r1000/7')).status).toBe(404)
  })

  it('finds routes added after the router was mounted', async () => {
    const router = big(20)
    const app = appWith(express, (a) => a.use(router))
    expect((await request(app).get('/late')).status).toBe(404)
    router.get('/late', ok)
    expect((await request(app).get('/late')).body.data).toBe('hit')
  })

  it('matches later layers against a URL that a use() middleware rewrote', async () => {
    const router = big(20)
    router.use((req, _res, next) => {
      if (req.url.startsWith('/old/')) req.url = `/r3/${req.url.slice(5)}`
      next()
    })
    const app = appWith(express, (a) => a.use(router))
    // /old/5 → /r3/5: route 3 stands before the middleware, so no route matches after it.
    expect((await request(app).get('/old/5')).status).toBe(404)
    router.get('/r3/:id', (req, res) => res.ok({ data: ['late r3', req.params] }))
    expect((await request(app).get('/old/5')).body.data).toEqual(['late r3', { id: '5' }])
  })

  it('runs a route that a middleware adds while the request is in the router', async () => {
    const router = big(20)
    let added = false
    router.use((_req, _res, next) => {
      if (!added) router.get('/lazy', ok)
      added = true
      next()
    })
    const app = appWith(express, (a) => a.use(router))
    expect((await request(app).get('/lazy')).body.data).toBe('hit')
  })

  it('visits every layer for a URL in absolute form (a proxy request), as Express scans them', async () => {
    const router = big(20)
    router.post('/r5/:id', ok)
    const served = await serve(appWith(express, (a) => a.use(router)))
    try {
      const hit = await served.send('GET', 'http://shapeguard.test/r19/3?x=1')
      expect(JSON.parse(hit.text).data).toEqual([19, { id: '3' }])
      const wrong = await served.send('PUT', 'http://shapeguard.test/r5/3')
      expect(wrong.status).toBe(405)
      expect(wrong.headers.allow).toBe('GET, HEAD, POST')
    } finally {
      await served.close()
    }
  })

  it('runs param callbacks only for routes whose method matches, as express.Router does', async () => {
    const seen: string[] = []
    const router = big(20)
    router.param('id', (_req, _res, next, id) => {
      seen.push(id)
      next()
    })
    router.post('/r5/:id', ok)
    const app = appWith(express, (a) => a.use(router))
    expect((await request(app).post('/r5/9')).status).toBe(201)
    expect(seen).toEqual(['9'])
  })
})
