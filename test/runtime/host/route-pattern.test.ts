import type { Request, Response } from 'express'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { middlewareOf, routePatternOf } from '../../../src/runtime/host/route-pattern.js'
import { createRouter } from '../../../src/runtime/router/create-router.js'
import { type Express, hosts } from '../../support/e2e.js'

type App = ReturnType<Express>

// Answers the pattern of the route that runs it, or null outside a route.
const answer = (req: Request, res: Response) => {
  res.json({ pattern: routePatternOf(req) ?? null })
}

async function patterns(app: App, paths: readonly string[]): Promise<unknown[]> {
  const out: unknown[] = []
  for (const path of paths) {
    const res = await request(app).get(path)
    expect(res.status, path).toBe(200)
    out.push(res.body.pattern)
  }
  return out
}

const all = (pattern: string | null, n: number) => Array.from({ length: n }, () => pattern)

describe.each(hosts)('routePatternOf on %s', (_name, express) => {
  it('is the route as registered, whatever the spelling of the path', async () => {
    const app = express()
    app.get('/users/:id', answer)
    app.get('/', answer)
    const paths = ['/users/1', '/USERS/2/', '/users/%31', '/Users/a%00']
    expect(await patterns(app, paths)).toEqual(all('/users/:id', paths.length))
    expect(await patterns(app, ['/'])).toEqual(['/'])
  })

  it('joins the mount paths of nested routers as registered, not as matched', async () => {
    const app = express()
    const inner = express.Router({ mergeParams: true })
    inner.get('/posts/:postId/', answer)
    const users = express.Router({ mergeParams: true })
    users.use('/:userId', inner)
    users.get('/', answer)
    app.use('/V1/users', users)
    const paths = ['/v1/users/7/posts/8', '/V1/USERS/x/Posts/y/']
    expect(await patterns(app, paths)).toEqual(all('/V1/users/:userId/posts/:postId', 2))
    expect(await patterns(app, ['/v1/users', '/v1/users/'])).toEqual(all('/V1/users', 2))
  })

  it("reads createRouter()'s routers", async () => {
    const app = express()
    const items = createRouter({ Router: express.Router as never })
    items.get('/items/:id', answer)
    app.use('/api', items)
    expect(await patterns(app, ['/api/items/1', '/API/Items/2/'])).toEqual(all('/api/items/:id', 2))
  })

  it('has the first of several paths: a router mounted twice, arrays of paths', async () => {
    const app = express()
    const auth = express.Router()
    auth.get(['/login', '/signin'], answer)
    app.use('/v1', auth)
    app.use(['/latest', '/current'], auth)
    const paths = ['/v1/login', '/latest/login', '/current/signin', '/V1/SIGNIN']
    expect(await patterns(app, paths)).toEqual(all('/v1/login', paths.length))
  })

  it('reads the mount paths of sub-applications', async () => {
    const app = express()
    const sub = express()
    const subsub = express()
    subsub.get('/deep', answer)
    sub.use('/b', subsub)
    sub.get('/files/:name', answer)
    app.use('/a', sub)
    expect(await patterns(app, ['/A/files/x', '/a/FILES/y'])).toEqual(all('/a/files/:name', 2))
    expect(await patterns(app, ['/a/b/deep', '/A/B/DEEP/'])).toEqual(all('/a/b/deep', 2))
  })

  it('writes a RegExp path as a RegExp', async () => {
    const app = express()
    app.get(/^\/re\d$/, answer)
    app.use(/^\/rx/, express.Router().get('/y', answer))
    expect(await patterns(app, ['/re1', '/re2'])).toEqual(all('/^\\/re\\d$/', 2))
    expect(await patterns(app, ['/rx/y'])).toEqual(['/^\\/rx//y'])
  })

  it('has the own path of a route whose router the app does not mount', async () => {
    const app = express()
    const inner = express.Router()
    inner.get('/x/:id', answer)
    app.use('/api', (req, res, next) => inner(req, res, next))
    expect(await patterns(app, ['/api/x/1', '/API/X/2'])).toEqual(all('/x/:id', 2))
  })

  it('is undefined outside a route', async () => {
    const app = express()
    app.use('/mw', answer)
    expect(await patterns(app, ['/mw', '/mw/a'])).toEqual(all(null, 2))
  })

  it('stops at a router mounted inside itself', async () => {
    const app = express()
    const loop = express.Router()
    loop.use('/again', loop)
    loop.get('/l', answer)
    app.use('/loop', loop)
    expect(await patterns(app, ['/loop/l', '/loop/again/l'])).toEqual(all('/loop/l', 2))
  })

  it('follows one router into each app that mounts it', async () => {
    const shared = express.Router()
    shared.get('/x', answer)
    const one = express()
    one.use('/one', shared)
    const two = express()
    two.use('/two', shared)
    expect(await patterns(one, ['/one/x'])).toEqual(['/one/x'])
    expect(await patterns(two, ['/two/x'])).toEqual(['/two/x'])
    expect(await patterns(one, ['/one/x'])).toEqual(['/one/x'])
  })

  it('lists the middleware below an app with its mount paths as registered, routers once', () => {
    const app = express()
    const first = () => {}
    const second = () => {}
    const third = () => {}
    const fourth = () => {}
    app.use(first)
    const inner = express.Router()
    inner.use('/Deep/:id', third)
    inner.get('/route', fourth)
    const api = express.Router({ mergeParams: true })
    api.use(second)
    api.use('/in', inner)
    app.use('/V1/:org', api)
    app.use('/again', api)
    app.use(/^\/rx/, fourth)
    const found = [...middlewareOf(app)].filter(([, handle]) =>
      [first, second, third, fourth].includes(handle as never),
    )
    expect(found).toEqual([
      ['/', first],
      ['/V1/:org', second],
      ['/V1/:org/in/Deep/:id', third],
      [expect.stringContaining('rx'), fourth],
    ])
    expect([...middlewareOf(undefined)]).toEqual([])
  })
})
