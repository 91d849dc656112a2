import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { kRoute } from '../../../src/runtime/core/route-mark.js'
import { defineRoute } from '../../../src/runtime/pipeline/define-route.js'
import { discoverRoutes } from '../../../src/runtime/pipeline/discover-routes.js'
import { handle } from '../../../src/runtime/pipeline/handle.js'
import { validate } from '../../../src/runtime/pipeline/validate.js'
import { createRouter } from '../../../src/runtime/router/create-router.js'
import { hosts } from '../../support/e2e.js'

const ok = (_req: unknown, res: { end(): void }) => res.end()
const found = (app: unknown) =>
  discoverRoutes(app).routes.map((r) => `${r.method.toUpperCase()} ${r.path}`)

describe('validate() marks its middleware', () => {
  it('carries the route under Symbol.for("shapeguard.route"), not enumerable', () => {
    const route = defineRoute({ body: z.object({ a: z.string() }) })
    const mw = validate(route)
    expect((mw as never)[kRoute]).toBe(route)
    expect(Object.keys(mw)).toEqual([])
    expect(kRoute).toBe(Symbol.for('shapeguard.route'))
  })
})

describe.each(hosts)('discoverRoutes on %s', (_, express) => {
  it('finds handle() and validate() routes of the app, in order, with their definitions', () => {
    const app = express()
    const create = defineRoute({ body: z.object({ name: z.string() }) })
    app.get('/health', ok)
    app.post('/users', ...handle(create, ok))
    app.get('/users/:id', validate({ params: z.object({ id: z.string() }) }), ok)
    app.route('/items').put(validate({}), ok).delete(validate({}), ok)
    const { routes, skipped } = discoverRoutes(app)
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual([
      'post /users',
      'get /users/:id',
      'put /items',
      'delete /items',
    ])
    expect(routes[0]!.route).toBe(create)
    expect(skipped).toEqual([])
  })

  it('joins the mount paths of nested routers and createRouter() routers', () => {
    const app = express()
    const inner = express.Router({ mergeParams: true })
    inner.get('/posts/:postId', validate({}), ok)
    const users = createRouter({ Router: express.Router as never })
    users.post('/', ...handle({}, ok))
    users.use('/:userId', inner)
    app.use('/v1/users', users)
    app.use(express.Router().post('/direct/', validate({}), ok))
    app.use(['/a', '/b'], express.Router().get('/x', validate({}), ok))
    expect(found(app)).toEqual([
      'POST /v1/users',
      'GET /v1/users/:userId/posts/:postId',
      'POST /direct',
      'GET /a/x',
      'GET /b/x',
    ])
  })

  it('reads a router itself, and an app with no routes', () => {
    const router = express.Router()
    router.get('/r', validate({}), ok)
    expect(found(router)).toEqual(['GET /r'])
    expect(found(express())).toEqual([])
  })

  it('lists what it cannot read: RegExp paths and sub-applications', () => {
    const app = express()
    app.get(/^\/re$/, validate({}), ok)
    const sub = express()
    sub.get('/s', validate({}), ok)
    app.use('/sub', sub)
    app.use(/^\/rx/, express.Router().get('/y', validate({}), ok))
    const { routes, skipped } = discoverRoutes(app)
    expect(routes).toEqual([])
    expect(skipped).toHaveLength(3)
    expect(skipped.join('\n')).toMatch(/RegExp path[\s\S]*sub-application[\s\S]*RegExp path/)
  })

  it('stops at a router mounted inside itself', () => {
    const app = express()
    const loop = express.Router()
    loop.get('/l', validate({}), ok)
    loop.use('/again', loop)
    app.use('/loop', loop)
    expect(found(app)).toEqual(['GET /loop/l'])
  })
})

describe('discoverRoutes', () => {
  it('throws a TypeError for what is not an app or router', () => {
    expect(() => discoverRoutes({})).toThrow(TypeError)
    expect(() => discoverRoutes(null)).toThrow(/Express app or router/)
  })
})
