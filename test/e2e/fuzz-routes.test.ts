import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import {
  AppError,
  configureLogger,
  errorHandler,
  handle,
  logger,
  shapeguard,
} from '../../src/index.js'
import { resetLogger } from '../../src/runtime/logging/logger.js'
import { type FuzzError, fuzzRoutes } from '../../src/testing/index.js'
import { captureLogger, hosts } from '../support/e2e.js'
import { readmeBlocks } from '../support/readme-blocks.js'
import { fuzzApp } from './fixtures/fuzz-app.js'
import { token, usersApi } from './fixtures/users-api.js'

// Kept small for `npm test`; FUZZ_RUNS raises it.
const runs = Math.min(Number(process.env.FUZZ_RUNS ?? 40), 2000)

beforeAll(() => configureLogger({ silent: true }))
afterAll(() => configureLogger({ silent: true }))

describe.each(hosts)('fuzzRoutes on %s', (_, express) => {
  it('finds no broken invariant on a correct app with zod, valibot and yup routes', async () => {
    const report = await fuzzRoutes(fuzzApp(express), { runs, seed: 11 })
    expect(report.routes.map((r) => r.route)).toEqual([
      'POST /v1/posts',
      'GET /v1/users/:id',
      'POST /v1/orders',
      'GET /v1/search',
      'methods',
    ])
    const [methods, ...fuzzed] = [...report.routes].reverse()
    // Every phase: the boundaries of every route's schemas, its examples, then `runs` random ones.
    expect(fuzzed.every((r) => r.phases.random === runs && r.notes.length === 0)).toBe(true)
    expect(fuzzed.every((r) => (r.phases.boundaries ?? 0) > 0)).toBe(true)
    // Each path's undeclared methods: GET, PUT, PATCH, DELETE, HEAD, OPTIONS of a POST path, the
    // same less HEAD and with POST of a GET one (notFoundHandler answers the 405s).
    expect(methods).toEqual({ route: 'methods', requests: 22, notes: [], phases: {} })
    expect(report.requests).toBe(report.routes.reduce((n, r) => n + r.requests, 0))
    expect(report.failures).toEqual([])
  }, 60_000)

  it('finds no broken invariant with a query array (one value is a one-element array) and a discriminated union body', async () => {
    const app = express()
    app.use(shapeguard())
    app.use(express.json())
    app.get(
      '/items',
      ...handle({ query: z.object({ ids: z.array(z.coerce.number()) }) }, (req, res) =>
        res.ok({ data: req.query.ids }),
      ),
    )
    const Shape = z.discriminatedUnion('type', [
      z.object({ type: z.literal('circle'), radius: z.number().positive() }),
      z.object({ type: z.literal('square'), side: z.number().positive() }),
    ])
    app.post('/shapes', ...handle({ body: Shape }, (req, res) => res.created({ data: req.body })))
    app.use(errorHandler())
    const report = await fuzzRoutes(app, { runs: 200, seed: 7 })
    expect(report.failures).toEqual([])
    expect(report.routes.map((r) => [r.route, r.notes])).toEqual([
      ['GET /items', []],
      ['POST /shapes', []],
    ])
    const one = await request(app).get('/items?ids=5')
    expect([one.status, one.body.data]).toEqual([200, [5]])
  }, 60_000)

  it('finds the planted bug (a crash on an empty tag list) and shrinks it to a curl line', async () => {
    const error = (await fuzzRoutes(fuzzApp(express, { bug: true }), {
      runs,
      seed: 99,
      phases: ['random'],
    }).catch((e: unknown) => e)) as FuzzError
    expect(error).toBeInstanceOf(Error)
    expect(error.message).toContain('seed 99')
    expect(error.message).toContain('POST /v1/posts: answered 500: a request must never get a 5xx')
    const [failure] = error.report.failures
    expect(error.report.failures).toHaveLength(1)
    expect(JSON.parse(failure!.request.body as string)).toEqual({
      title: expect.any(String),
      tags: [],
    })
    // Shrunk: the shortest title that passes trim().min(1).
    expect(JSON.parse(failure!.request.body as string).title).toHaveLength(1)
    expect(failure!.curl).toMatch(
      /^curl --globoff -X POST 'http:\/\/localhost:3000\/v1\/posts' -H 'content-type: application\/json' --data-raw '\{"title":"a","tags":\[\]\}'$/,
    )
    expect(error.message).toContain(failure!.curl)
  }, 60_000)

  it('sends the auth header it is given; without it every answer is an undocumented 401', async () => {
    const app = fuzzApp(express, { token: 't0k' })
    await expect(fuzzRoutes(app, { runs: 5, seed: 1 })).rejects.toThrow(
      /answered 401, a status the OpenAPI document does not list/,
    )
    const report = await fuzzRoutes(app, { runs: 5, seed: 1, auth: 'Bearer t0k' })
    expect(report.failures).toEqual([])
  }, 60_000)

  it("fuzzes the README's users API: a rate-limited route behind a bearer token", async () => {
    const { app, spec } = usersApi(express)
    const report = await fuzzRoutes(app, {
      runs: 40,
      seed: 3,
      openapi: spec,
      auth: `Bearer ${token}`,
      phases: ['random'],
    })
    expect(report.failures).toEqual([])
    // 10 a minute: most of the 40 get the limiter's 429, which the report says. The route is
    // secured (the document's default security): two more requests, without credentials and
    // with a wrong token, each answered 401 before the limiter.
    expect(report.routes).toEqual([
      {
        route: 'POST /users',
        requests: 42,
        phases: { random: 40 },
        notes: [
          expect.stringMatching(
            /^[1-3]\d of 40 requests answered 429 by the route's rateLimit: fuzz an app built with a higher max/,
          ),
        ],
      },
      { route: 'methods', requests: 6, notes: [], phases: {} },
    ])
  }, 60_000)

  it('checks only the 401s of a secured route it has no credentials for, and says so once', async () => {
    const { app, spec } = usersApi(express)
    const report = await fuzzRoutes(app, { runs: 5, seed: 3, openapi: spec })
    expect(report.failures).toEqual([])
    expect(report.routes).toEqual([
      { route: 'POST /users', requests: 2, phases: {}, notes: [] },
      {
        route: 'methods',
        requests: 6,
        notes: [
          "5 of 6 requests answered 401 or 403 before any route (the app's own auth): their methods were not checked",
        ],
        phases: {},
      },
    ])
    expect(report.skipped).toEqual([
      'POST /users: secured (bearer) and no credentials were given for it, only its 401 answers were checked: give fuzzRoutes auth',
    ])
  }, 60_000)

  it('says where the credentials go when the app refuses the requests of a route the document does not secure', async () => {
    // Credentials checked by a middleware of the app's own: the document knows nothing of them.
    const app = express()
    app.use(shapeguard())
    app.use(express.json())
    app.use((req, _res, next) =>
      next(req.get('authorization') === 'Bearer t' ? undefined : AppError.unauthorized()),
    )
    app.post(
      '/users',
      ...handle({ body: z.object({ name: z.string() }) }, (req, res) =>
        res.created({ data: req.body }),
      ),
    )
    app.use(errorHandler())
    await expect(fuzzRoutes(app, { runs: 5, seed: 3 })).rejects.toThrow(
      /POST \/users: answered 401, a status the OpenAPI document does not list .*\(refused before validation: give fuzzRoutes the credentials, auth or headers\)/,
    )
  }, 60_000)

  it("keeps shapeguard's logs quiet for the run, then puts the user's level back", async () => {
    resetLogger()
    const capture = captureLogger()
    try {
      configureLogger({ level: 'warn' })
      const app = fuzzApp(express, { logger: { instance: capture } })
      await fuzzRoutes(app, { runs: 20, seed: 11 })
      const buggy = fuzzApp(express, { bug: true, logger: { instance: capture } })
      await expect(fuzzRoutes(buggy, { runs: 20, seed: 99 })).rejects.toThrow(/answered 500/)
      expect(capture.records).toEqual([])
      logger.info('after the run: below the level')
      logger.warn('after the run: at the level')
      await request(app).get('/v1/users/0')
      expect(capture.records[0]).toMatchObject({
        level: 'warn',
        message: 'after the run: at the level',
      })
      // The 422's request line, at warn; nothing below the level.
      expect(capture.records.length).toBeGreaterThan(1)
      expect(capture.records.every((r) => r.level === 'warn' || r.level === 'error')).toBe(true)
      const before = capture.records.length
      await fuzzRoutes(app, { runs: 20, seed: 11, routes: ['GET /v1/users/:id'], logs: true })
      expect(capture.records.length).toBeGreaterThan(before)
    } finally {
      resetLogger()
      configureLogger({ silent: true })
    }
  }, 60_000)
})

describe('fuzzRoutes', () => {
  const express = hosts[1][1]

  it('fuzzes only the routes asked for, and allows statuses beyond the document', async () => {
    const app = fuzzApp(express, { token: 't' })
    const report = await fuzzRoutes(app, {
      runs: 5,
      seed: 3,
      routes: ['get /v1/search'],
      phases: ['random'],
      statuses: { 'GET /v1/search': [401] },
    })
    expect(report.routes.map((r) => r.route)).toEqual(['GET /v1/search'])
    expect(report.requests).toBe(5)
  })

  it('checks its options when called', async () => {
    const app = fuzzApp(express)
    await expect(fuzzRoutes(app, { runs: 0 })).rejects.toThrow(
      'fuzzRoutes(): options.runs must be a positive integer',
    )
    await expect(fuzzRoutes(app, { nope: 1 } as never)).rejects.toThrow(
      'options.nope is not an option',
    )
    await expect(fuzzRoutes(app, { routes: ['GET /missing'] })).rejects.toThrow(
      'options.routes names GET /missing, which the app does not have',
    )
    await expect(fuzzRoutes({}, {})).rejects.toThrow(/must be an Express app or router/)
  })

  it('fuzz-failure: produces the README sample failure report', async () => {
    const error = (await fuzzRoutes(fuzzApp(express, { bug: true }), {
      runs: 100,
      seed: 42,
      routes: ['POST /v1/posts'],
      // The guide's sample is the random phase's shrunk failure.
      phases: ['random'],
    }).catch((e: unknown) => e)) as Error
    const block = readmeBlocks().find((b) => b.output === 'fuzz-failure')
    expect(`${error.message}\n`).toBe(block?.code)
  }, 60_000)
})
