import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import { AppError, errorHandler, notFoundHandler, shapeguard } from '../../src/index.js'
import { resetLogger } from '../../src/runtime/logging/logger.js'
import { captureLogger, type Express, hosts } from '../support/e2e.js'

const TOKEN = 's3cr3t-invite-token-123'

afterEach(() => resetLogger())

// Routes under mount parameters, nested routers, a sub-application and a case-insensitive mount.
function app(express: Express) {
  const sink = captureLogger()
  const app = express()
  app.use(shapeguard({ debug: true, logger: { instance: sink } }))
  const invite = express.Router({ mergeParams: true })
  invite.post('/accept', (_req, res) => res.ok({ data: { accepted: true } }))
  invite.post('/refuse', () => {
    throw AppError.forbidden('Invite refused')
  })
  app.use('/invite/:token', invite)
  const teams = express.Router({ mergeParams: true })
  teams.get('/members/:id', (_req, res) => res.ok({ data: {} }))
  const orgs = express.Router({ mergeParams: true })
  orgs.use('/teams/:team', teams)
  app.use('/orgs/:org', orgs)
  const items = express.Router()
  items.get('/items/:id', (_req, res) => res.ok({ data: {} }))
  app.use('/v1', items)
  const sub = express()
  sub.get('/files/:name', (_req, res) => res.json({ ok: true }))
  sub.get('/broken/:name', () => {
    throw new Error('disk gone')
  })
  app.use('/tenants/:tenant', sub)
  app.use(notFoundHandler())
  app.use(errorHandler())
  return { app, sink }
}

describe.each(hosts)('the endpoint of a request record on %s', (_, express) => {
  // The response records (the arrival lines, at debug, show the path as requested).
  async function endpoints(...paths: [method: 'get' | 'post', path: string][]) {
    const { app: server, sink } = app(express)
    for (const [method, path] of paths) await request(server)[method](path)
    const records = sink.records.filter((r) => r.level !== 'debug')
    expect(records.map((r) => r.meta.endpoint).join()).not.toContain(TOKEN)
    // The request records (a development warning names the route too, without a status).
    return records
      .filter((r) => r.meta.status !== undefined)
      .map((r) => [r.meta.status, r.meta.endpoint])
  }

  it('is the route pattern under a mount parameter, answered or failed', async () => {
    expect(
      await endpoints(['post', `/invite/${TOKEN}/accept`], ['post', `/invite/${TOKEN}/refuse`]),
    ).toEqual([
      [201, '/invite/:token/accept'],
      [403, '/invite/:token/refuse'],
    ])
  })

  it('is the pattern through nested routers, whatever the spelling', async () => {
    expect(
      await endpoints(
        ['get', `/orgs/${TOKEN}/teams/${TOKEN}/members/${TOKEN}`],
        ['get', `/V1/Items/${TOKEN}/`],
      ),
    ).toEqual([
      [200, '/orgs/:org/teams/:team/members/:id'],
      [200, '/v1/items/:id'],
    ])
  })

  // Once an error has left a sub-application Express has restored the parent app on the request,
  // which cannot see into the sub-application: the line has the sub-application's part.
  it("is the pattern in a sub-application, its own part once its error went up to the app's", async () => {
    expect(
      await endpoints(
        ['get', `/tenants/${TOKEN}/files/${TOKEN}`],
        ['get', `/tenants/${TOKEN}/broken/${TOKEN}`],
      ),
    ).toEqual([
      [200, '/tenants/:tenant/files/:name'],
      [500, '/broken/:name'],
    ])
  })

  it('is left out when no route matched: the path could hold a token', async () => {
    expect(await endpoints(['get', `/invite/${TOKEN}/nowhere`])).toEqual([[404, undefined]])
  })
})
