import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { configureLogger, errorHandler, shapeguard } from '../../src/index.js'
import { type Express, hosts } from '../support/e2e.js'

// The response helpers live on the app's response prototype, put there once: a request pays
// nothing for them, a mounted sub-app inherits them, and a response shapeguard() never saw still
// gets the error that names it, whether or not another request installed them first.
beforeAll(() => {
  configureLogger({ silent: true })
})

describe.each(hosts)('response helpers on %s', (_, express: Express) => {
  it("are on the app's response prototype, not on each response", async () => {
    const app = express()
    app.use(shapeguard())
    app.get('/where', (_req, res) => {
      const own = ['ok', 'created', 'fail'].filter((name) => Object.hasOwn(res, name))
      res.ok({ data: { own, onProto: Object.hasOwn(app.response, 'ok') } })
    })
    const first = await request(app).get('/where')
    expect(first.body.data).toEqual({ own: [], onProto: true })
    expect((await request(app).get('/where')).body.data).toEqual({ own: [], onProto: true })
    // Express's own response object, shared by every app, is left alone.
    expect(Object.hasOwn(Object.getPrototypeOf(app.response), 'ok')).toBe(false)
    expect(typeof (express().response as { ok?: unknown }).ok).toBe('undefined')
  })

  it('reach a plain route of a sub-app mounted under shapeguard()', async () => {
    const app = express()
    const admin = express()
    admin.get('/stats', (_req, res) => res.created({ data: { users: 3 } }))
    app.use(shapeguard())
    app.use('/admin', admin)
    app.use(errorHandler())
    for (let i = 0; i < 2; i++) {
      const res = await request(app).get('/admin/stats')
      expect(res.status).toBe(201)
      expect(res.body).toEqual({ success: true, message: '', data: { users: 3 } })
    }
  })

  it('stay after a request leaves a sub-app that ran shapeguard()', async () => {
    const app = express()
    const sub = express()
    const inner = express()
    sub.use(shapeguard())
    sub.get('/a', (_req, res) => res.ok({ data: 'a' }))
    inner.get('/c', (_req, res) => res.ok({ data: 'c' }))
    sub.use('/inner', inner)
    app.use(sub)
    app.get('/b', (_req, res) => res.ok({ data: 'b' }))
    app.use(errorHandler())
    for (const [path, data] of [
      ['/a', 'a'],
      ['/b', 'b'],
      ['/inner/c', 'c'],
      ['/b', 'b'],
    ] as const) {
      const res = await request(app).get(path)
      expect([res.status, res.body.data]).toEqual([200, data])
    }
  })

  it('fail on a route mounted before shapeguard() with an error naming it, in either order', async () => {
    const app = express()
    app.get('/early', (_req, res) => res.ok({ data: 1 }))
    app.use(shapeguard({ debug: true }))
    app.get('/late', (_req, res) => res.ok({ data: 2 }))
    app.use(errorHandler())
    // Before any request installed the helpers, and after.
    const before = await request(app).get('/early')
    expect((await request(app).get('/late')).body.data).toBe(2)
    const after = await request(app).get('/early')
    for (const res of [before, after]) {
      expect(res.status).toBe(500)
      expect(res.body.error.code).toBe('INTERNAL_ERROR')
      expect(res.body.message).toContain('exist only after app.use(shapeguard())')
    }
  })

  it('keep two apps with different configurations apart', async () => {
    const a = express()
    a.use(shapeguard({ response: { statusCodes: { GET: 203 } } }))
    a.get('/x', (_req, res) => res.ok({ data: 'a' }))
    const b = express()
    b.use(shapeguard())
    b.get('/x', (_req, res) => res.ok({ data: 'b' }))
    expect((await request(a).get('/x')).status).toBe(203)
    expect((await request(b).get('/x')).status).toBe(200)
    expect((await request(a).get('/x')).status).toBe(203)
  })
})
