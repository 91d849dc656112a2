import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import {
  AppError,
  configureLogger,
  errorHandler,
  handle,
  type ShapeguardConfig,
  shapeguard,
} from '../../src/index.js'
import { type FuzzError, fuzzRoutes } from '../../src/testing/index.js'
import { type Express, hosts } from '../support/e2e.js'

// The fuzzer proves a secured route's contract: 401 without credentials and with wrong ones (the
// ignored_auth check), success with the credentials it is given, each credential masked in its
// curl lines; a route's declared errors are accepted without `statuses`.

const runs = 15
const TOKEN = 'tok-5b2f0c'
const KEY = 'key-90ab31'

beforeAll(() => configureLogger({ silent: true }))
afterAll(() => configureLogger({ silent: true }))

const auth = {
  bearer: (token: string) => (token === TOKEN ? { id: 1 } : undefined),
  basic: (user: string, password: string) =>
    user === 'ada' && password === 's3cret' ? { user } : undefined,
  header: {
    in: 'header',
    name: 'X-API-Key',
    verify: (key: string) => (key === KEY ? {} : undefined),
  },
  query: { in: 'query', name: 'api_key', verify: (key: string) => (key === KEY ? {} : undefined) },
  cookie: { in: 'cookie', name: 'sid', verify: (key: string) => (key === KEY ? {} : undefined) },
} satisfies ShapeguardConfig['auth']

const Note = z.object({ text: z.string().max(50) })
const Echo = z.object({ id: z.number(), text: z.string() })

function app(express: Express, config: Partial<ShapeguardConfig> = {}) {
  const app = express()
  app.use(shapeguard({ auth, ...config }))
  app.use(express.json())
  // One handler for routes of several slots.
  const reply = (req: any, res: any) => res.created({ data: { id: 1, text: req.body.text } })
  const route = { body: Note, response: Echo }
  app.post('/bearer', ...handle({ ...route, security: ['bearer'] }, reply))
  app.post('/basic', ...handle({ ...route, security: ['basic'] }, reply))
  app.post('/header', ...handle({ ...route, security: ['header'] }, reply))
  app.post('/query', ...handle({ ...route, security: ['query'] }, reply))
  app.post('/cookie', ...handle({ ...route, security: ['cookie'] }, reply))
  app.post('/either', ...handle({ ...route, security: ['bearer', 'header'] }, reply))
  app.get(
    '/open',
    ...handle({ security: [], response: z.object({ ok: z.boolean() }) }, (_req, res) =>
      res.ok({ data: { ok: true } }),
    ),
  )
  app.use(errorHandler())
  return app
}

// The app mounts no notFoundHandler(): the report says undeclared methods were not checked.
const noMethods =
  'methods: undeclared methods not checked, the app mounts no notFoundHandler() to answer them 405 with Allow (Express answers 404 on its own): mount it after the routes'

const credentials = {
  bearer: TOKEN,
  basic: { user: 'ada', password: 's3cret' },
  header: KEY,
  query: KEY,
  cookie: KEY,
}

const failureOf = async (run: Promise<unknown>) =>
  (await run.then(
    () => undefined,
    (e: unknown) => e,
  )) as FuzzError

describe.each(hosts)('fuzzRoutes and security on %s', (_, express) => {
  it('passes a protected app: 401 without and with wrong credentials, success with the given ones', async () => {
    const report = await fuzzRoutes(app(express), { runs, seed: 5, auth: credentials })
    expect(report.failures).toEqual([])
    expect(report.skipped).toEqual([noMethods])
    // The auth probes, then the phases' requests (each route's own count).
    const generated = (r: (typeof report.routes)[number]) =>
      Object.values(r.phases).reduce((n, k) => n + k, 0)
    expect(report.routes.every((r) => r.phases.random === runs)).toBe(true)
    const requests = Object.fromEntries(
      report.routes.map((r) => [r.route, r.requests - generated(r) + runs]),
    )
    // One request without credentials, one with wrong ones per alternative, then the run.
    expect(requests).toEqual({
      'POST /bearer': runs + 2,
      'POST /basic': runs + 2,
      'POST /header': runs + 2,
      'POST /query': runs + 2,
      'POST /cookie': runs + 2,
      'POST /either': runs + 3,
      'GET /open': runs,
    })
  }, 60_000)

  it('takes basic credentials as user:password and the Authorization header as a string', async () => {
    const basic = await fuzzRoutes(app(express), {
      runs,
      seed: 6,
      routes: ['POST /basic'],
      auth: { basic: 'ada:s3cret' },
    })
    expect(basic.failures).toEqual([])
    const bearer = await fuzzRoutes(app(express), {
      runs,
      seed: 6,
      routes: ['POST /bearer'],
      auth: `Bearer ${TOKEN}`,
    })
    expect(bearer.failures).toEqual([])
  }, 60_000)

  it('reports a secured route it has no credentials for once, checking only its 401s', async () => {
    const report = await fuzzRoutes(app(express), { runs, seed: 7, auth: { bearer: TOKEN } })
    expect(report.failures).toEqual([])
    expect(report.skipped).toEqual([
      ...['basic', 'header', 'query', 'cookie'].map(
        (name) =>
          `POST /${name}: secured (${name}) and no credentials were given for it, only its 401 answers were checked: give fuzzRoutes auth`,
      ),
      noMethods,
    ])
    expect(report.routes.find((r) => r.route === 'POST /query')?.requests).toBe(2)
  }, 60_000)

  it('fails a route that documents security and lets requests through, with a masked curl line', async () => {
    // The verifier takes any token and nothing in front of the route refuses a request.
    const open = express()
    const anyKey = { ...auth.query, verify: () => ({}) }
    open.use(shapeguard({ auth: { bearer: () => ({ id: 1 }), query: anyKey } }))
    open.use(express.json())
    open.post(
      '/notes',
      ...handle({ body: Note, security: ['bearer'] }, (req, res) =>
        res.created({ data: req.body }),
      ),
    )
    open.get('/keyed', ...handle({ security: ['query'] }, (_req, res) => res.ok({ data: null })))
    open.use(errorHandler())
    const error = await failureOf(
      fuzzRoutes(open, { runs, seed: 8, auth: { bearer: TOKEN, query: KEY } }),
    )
    const [notes, keyed] = error.report.failures
    expect(notes!.invariant).toMatch(
      /^ignored_auth: a request (without credentials|with a wrong bearer credential) got 201, not 401$/,
    )
    expect(keyed!.invariant).toMatch(
      /^ignored_auth: a request (without credentials|with a wrong query credential) got 200, not 401$/,
    )
    expect(notes!.curl).toMatch(/^curl --globoff -X POST 'http:\/\/localhost:3000\/notes'/)
    for (const f of error.report.failures) expect(error.message).toContain(f.curl)
    expect(error.message).not.toContain(TOKEN)
    expect(error.message).not.toContain(KEY)
  }, 60_000)

  it('masks every credential in the curl lines of a failure, wherever the scheme sends it', async () => {
    const broken = express()
    broken.use(shapeguard({ auth }))
    broken.use(express.json())
    // Protected, then crashing: the failures are requests that carry the credentials.
    const crash = () => {
      throw new Error('boom')
    }
    broken.get('/b', ...handle({ security: ['bearer'] }, crash))
    broken.get('/h', ...handle({ security: ['header'] }, crash))
    broken.get('/q', ...handle({ security: ['query'] }, crash))
    broken.get('/c', ...handle({ security: ['cookie'] }, crash))
    broken.get('/s', ...handle({ security: ['basic'] }, crash))
    broken.use(errorHandler())
    const error = await failureOf(fuzzRoutes(broken, { runs, seed: 9, auth: credentials }))
    const curls = Object.fromEntries(error.report.failures.map((f) => [f.route, f.curl]))
    expect(
      Object.values(error.report.failures).every((f) => f.invariant.startsWith('answered 500')),
    ).toBe(true)
    expect(curls['GET /b']).toContain("-H 'authorization: Bearer ***'")
    expect(curls['GET /h']).toContain("-H 'x-api-key: ***'")
    expect(curls['GET /q']).toContain("/q?api_key=***'")
    expect(curls['GET /c']).toContain("-H 'cookie: sid=***'")
    expect(curls['GET /s']).toContain("-H 'authorization: Basic ***'")
    expect(error.message).not.toContain(TOKEN)
    expect(error.message).not.toContain(KEY)
    expect(error.message).not.toContain(Buffer.from('ada:s3cret').toString('base64'))
  }, 60_000)

  it('refuses credentials for a scheme the app does not declare', async () => {
    await expect(fuzzRoutes(app(express), { runs, auth: { bearr: TOKEN } })).rejects.toThrow(
      expect.objectContaining({
        code: 'SG_ERR_UNKNOWN_NAME',
        message:
          'shapeguard: fuzzRoutes(): options.auth names bearr, which the app does not declare (bearer, basic, header, query, cookie)',
      }),
    )
    await expect(fuzzRoutes(app(express), { runs, auth: { basic: 'no-colon' } })).rejects.toThrow(
      "shapeguard: fuzzRoutes(): options.auth.basic must be 'user:password' or { user, password }",
    )
  })
})

describe.each(hosts)('fuzzRoutes and declared errors on %s', (_, express) => {
  const OutOfStock = AppError.define('OUT_OF_STOCK', 409, 'Out of stock', {
    details: z.object({ sku: z.string() }),
  })
  const Teapot = AppError.define('TEAPOT', 418, 'I am a teapot')

  function shop(undeclared: boolean) {
    const app = express()
    app.use(shapeguard())
    const id = z.object({ id: z.string() })
    app.get(
      '/items/:id',
      ...handle({ params: id, errors: ['NOT_FOUND', OutOfStock] }, (req, res) => {
        const n = req.params.id.length % 3
        if (n === 0) throw AppError.notFound('Item')
        if (n === 1) throw OutOfStock({ sku: req.params.id })
        if (undeclared) throw Teapot(null)
        res.ok({ data: null })
      }),
    )
    app.use(errorHandler())
    return app
  }

  it("accepts the statuses of a route's errors without statuses", async () => {
    const report = await fuzzRoutes(shop(false), { runs: 30, seed: 4 })
    expect(report.failures).toEqual([])
  }, 60_000)

  it('fails a 4xx the route neither documents nor declares, naming the route, the status and the curl line', async () => {
    const error = await failureOf(fuzzRoutes(shop(true), { runs: 30, seed: 4 }))
    const [failure] = error.report.failures
    expect(failure!.route).toBe('GET /items/:id')
    expect(failure!.invariant).toMatch(
      /^answered 418, a status the OpenAPI document does not list for this operation/,
    )
    expect(error.message).toContain(`GET /items/:id: ${failure!.invariant}\n  ${failure!.curl}`)
  }, 60_000)
})
