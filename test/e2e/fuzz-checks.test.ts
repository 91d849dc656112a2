import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import {
  AppError,
  configureLogger,
  errorHandler,
  handle,
  notFoundHandler,
  shapeguard,
} from '../../src/index.js'
import { type FuzzError, fuzzRoutes } from '../../src/testing/index.js'
import { type Express, hosts } from '../support/e2e.js'

// The checks across an app's routes and on every answer, each against a planted defect: an
// undeclared method answered 200 or 404, a success in the wrong media type, an undeclared
// status, an answer past maxResponseTime.

beforeAll(() => configureLogger({ silent: true }))
afterAll(() => configureLogger({ silent: true }))

type Defect = 'none' | 'put-200' | 'patch-404' | 'text-json' | 'status-202' | 'slow'

const Item = z.object({ id: z.number(), name: z.string() })

function app(express: Express, defect: Defect, notFound = true) {
  const app = express()
  app.use(shapeguard())
  app.use(express.json())
  if (defect === 'put-200')
    app.use('/items', (req, res, next) => (req.method === 'PUT' ? res.json({ ok: true }) : next()))
  if (defect === 'patch-404')
    app.use((req, _res, next) => next(req.method === 'PATCH' ? AppError.notFound() : undefined))
  app.get(
    '/items',
    ...handle({ response: z.array(Item) }, async (_req, res) => {
      if (defect === 'slow') await new Promise((resolve) => setTimeout(resolve, 400))
      res.ok({ data: [{ id: 1, name: 'a' }] })
    }),
  )
  app.post(
    '/items',
    ...handle({ body: z.object({ name: z.string().max(20) }), response: Item }, (req, res) => {
      const data = { id: 2, name: req.body.name }
      if (defect === 'status-202') return void res.status(202).json({ success: true, data })
      if (defect === 'text-json') {
        res.set('content-type', 'text/json')
        return void res.status(201).send(JSON.stringify({ success: true, message: '', data }))
      }
      res.created({ data })
    }),
  )
  if (notFound) app.use(notFoundHandler())
  app.use(errorHandler())
  return app
}

const failuresOf = async (a: unknown, options = {}) => {
  const error = (await fuzzRoutes(a, { runs: 10, seed: 5, ...options }).catch(
    (e: unknown) => e,
  )) as FuzzError
  expect(error).toBeInstanceOf(Error)
  return error.report.failures.map((f) => `${f.route}: ${f.invariant}`)
}

describe.each(hosts)('the checks on %s', (_, express) => {
  it('finds nothing on the correct app: every undeclared method a 405 with the exact Allow', async () => {
    const report = await fuzzRoutes(app(express, 'none'), { runs: 10, seed: 5 })
    expect(report.failures).toEqual([])
    // PUT, PATCH, DELETE, OPTIONS of /items (GET, HEAD and POST are declared).
    expect(report.routes.at(-1)).toEqual({ route: 'methods', requests: 4, notes: [], phases: {} })
    expect(report.skipped).toEqual([])
  }, 60_000)

  it('says it did not check undeclared methods on an app without notFoundHandler()', async () => {
    const bare = app(express, 'none', false)
    const report = await fuzzRoutes(bare, { runs: 10, seed: 5 })
    expect(report.failures).toEqual([])
    expect(report.routes.map((r) => r.route)).toEqual(['GET /items', 'POST /items'])
    expect(report.skipped).toEqual([
      'methods: undeclared methods not checked, the app mounts no notFoundHandler() to answer them 405 with Allow (Express answers 404 on its own): mount it after the routes',
    ])
    // A run of chosen routes is about them, not about the paths' other methods: nothing to say.
    const chosen = await fuzzRoutes(bare, { runs: 10, seed: 5, routes: ['GET /items'] })
    expect(chosen.skipped).toEqual([])
  }, 60_000)

  it('finds an undeclared method answered 200 and one answered 404 without Allow', async () => {
    expect(await failuresOf(app(express, 'put-200'))).toEqual([
      'PUT /items: a method no route of the path declares answered 200, not 405 with Allow: GET, HEAD, POST',
    ])
    expect(await failuresOf(app(express, 'patch-404'))).toEqual([
      'PATCH /items: a method no route of the path declares answered 404, not 405 with Allow: GET, HEAD, POST',
    ])
  }, 60_000)

  it('finds a success answer in a media type the document does not give it', async () => {
    expect(await failuresOf(app(express, 'text-json'))).toEqual([
      expect.stringMatching(
        /^POST \/items: answered 201 without the Content-Type application\/json of its envelope$/,
      ),
    ])
  }, 60_000)

  it('finds a status the document does not list', async () => {
    expect(await failuresOf(app(express, 'status-202'))).toEqual([
      expect.stringMatching(
        /^POST \/items: answered 202, a status the OpenAPI document does not list/,
      ),
    ])
  }, 60_000)

  it('finds an answer past maxResponseTime, and only with one', async () => {
    const slow = app(express, 'slow')
    expect(await failuresOf(slow, { maxResponseTime: 200 })).toEqual([
      expect.stringMatching(
        /^GET \/items: answered 200 in \d+ ms, past maxResponseTime \(200 ms\)$/,
      ),
    ])
    expect((await fuzzRoutes(slow, { runs: 3, seed: 5 })).failures).toEqual([])
  }, 60_000)
})
