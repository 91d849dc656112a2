import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  configureLogger,
  createRouter,
  errorHandler,
  notFoundHandler,
  shapeguard,
} from '../../src/index.js'
import { type Express, hosts } from '../support/e2e.js'

// A guarded app answers 405 METHOD_NOT_ALLOWED with `Allow` for a path its own routes have under
// other methods (app.get, express.Router, createRouter alike); 404 for a path none has.

beforeAll(() => configureLogger({ silent: true }))

function app(express: Express) {
  const app = express()
  app.use(shapeguard())
  app.get('/users/:id', (_req, res) => res.json({ ok: true }))
  app.post('/users/:id', (_req, res) => res.json({ ok: true }))
  // Matches, then passes the request on: a 404, not a wrong method.
  app.get('/passes', (_req, _res, next) => next())
  const v1 = express.Router()
  v1.put('/items/:id', (_req, res) => res.json({ ok: true }))
  app.use('/v1', v1)
  const v2 = createRouter()
  v2.patch('/things', (_req, res) => res.json({ ok: true }))
  app.use('/v2', v2)
  app.use(notFoundHandler(), errorHandler())
  return app
}

describe.each(hosts)('405 on %s', (_, express) => {
  it("answers 405 with Allow for a method the path's routes do not have", async () => {
    const a = app(express)
    const del = await request(a).delete('/users/7')
    expect([del.status, del.headers.allow, del.body.error.code]).toEqual([
      405,
      'GET, HEAD, POST',
      'METHOD_NOT_ALLOWED',
    ])
    expect(del.body.error.details).toEqual({ allowed: ['GET', 'HEAD', 'POST'] })
    const nested = await request(a).get('/v1/items/3?x=1')
    expect([nested.status, nested.headers.allow]).toEqual([405, 'PUT'])
    const head = await request(a).head('/v1/items/3')
    expect([head.status, head.headers.allow]).toEqual([405, 'PUT'])
    const table = await request(a).post('/v2/things')
    expect([table.status, table.headers.allow]).toEqual([405, 'PATCH'])
  })

  it('answers 404 for a path no route has, and for one whose route passed the request on', async () => {
    const a = app(express)
    for (const res of [
      await request(a).delete('/nothing'),
      await request(a).get('/passes'),
      await request(a).delete('/users/7/more'),
    ]) {
      expect([res.status, res.headers.allow, res.body.error.code]).toEqual([
        404,
        undefined,
        'NOT_FOUND',
      ])
    }
  })

  it('leaves the matched requests alone', async () => {
    const a = app(express)
    expect((await request(a).get('/users/7')).body).toEqual({ ok: true })
    expect((await request(a).put('/v1/items/3')).body).toEqual({ ok: true })
  })
})
