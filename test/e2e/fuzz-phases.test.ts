import * as v from 'valibot'
import { beforeAll, describe, expect, it } from 'vitest'
import * as y from 'yup'
import * as z from 'zod'
import { valibotAdapter } from '../../src/adapters/valibot/index.js'
import { yupAdapter } from '../../src/adapters/yup/index.js'
import { configureLogger, errorHandler, handle, shapeguard } from '../../src/index.js'
import type { Schema } from '../../src/runtime/pipeline/route-types.js'
import { type FuzzError, fuzzRoutes } from '../../src/testing/index.js'
import { type Express, hosts } from '../support/e2e.js'
import { valibotHasExamples } from '../support/peer-features.js'

beforeAll(() => configureLogger({ silent: true }))

type Handler = (req: { body: never; headers: Record<string, unknown> }) => void

function oneRoute(express: Express, slots: Record<string, Schema>, crash: Handler) {
  const app = express()
  app.use(shapeguard())
  app.use(express.json())
  app.post(
    '/things',
    ...handle(slots, (req, res) => {
      crash(req as never)
      res.ok({ data: null })
    }),
  )
  app.use(errorHandler())
  return app
}

const failureOf = async (app: unknown) => {
  const error = (await fuzzRoutes(app, { seed: 5 }).then(
    () => undefined,
    (e: unknown) => e,
  )) as FuzzError | undefined
  return error?.report.failures[0]
}

const boom = () => {
  throw new Error('planted')
}

const Shape = z.union([
  z.object({ kind: z.literal('circle'), radius: z.number().positive() }),
  z.object({ kind: z.literal('square'), side: z.number().positive() }),
  z.string().min(3).max(10),
])

// Each handler crashes on one edge only; the boundaries phase sends every edge once.
const planted: readonly [string, Record<string, Schema>, Handler][] = [
  [
    'a string at exactly its max length',
    { body: z.object({ name: z.string().min(2).max(40) }) },
    (r) => (r.body as { name: string }).name.length === 40 && boom(),
  ],
  [
    "an enum's last member",
    { body: z.object({ size: z.enum(['xs', 's', 'm', 'l', 'xl', 'xxl']) }) },
    (r) => (r.body as { size: string }).size === 'xxl' && boom(),
  ],
  [
    'one branch of a union',
    { body: z.object({ shape: Shape }) },
    (r) => typeof (r.body as { shape: unknown }).shape === 'string' && boom(),
  ],
  [
    'an optional field absent',
    { body: z.object({ title: z.string(), note: z.string().optional() }) },
    (r) => (r.body as { note?: string }).note === undefined && boom(),
  ],
]

describe.each(hosts)('the examples and boundaries phases on %s', (_, express) => {
  it.each(planted)(
    'find a crash on %s in the boundaries phase',
    async (_name, slots, crash) => {
      const failure = await failureOf(oneRoute(express, slots, crash))
      expect(failure?.phase).toBe('boundaries')
      expect(failure?.invariant).toBe('answered 500: a request must never get a 5xx')
    },
    20_000,
  )

  it('finds a route that answers 200 when a required header is missing', async () => {
    const app = express()
    app.use(shapeguard())
    // A cache in front of the route answers before its headers are validated.
    app.use((req, res, next) => {
      if (req.headers['x-api-key'] === undefined) res.json({ success: true, data: null })
      else next()
    })
    const headers = z.object({ 'x-api-key': z.string().min(8) })
    app.get('/report', ...handle({ headers }, (_req, res) => res.ok({ data: null })))
    app.use(errorHandler())
    const error = (await fuzzRoutes(app, {
      seed: 5,
    }).catch((e: unknown) => e)) as FuzzError
    const [failure] = error.report.failures
    expect(failure?.phase).toBe('boundaries')
    expect(failure?.invariant).toBe(
      'an invalid request (headers field x-api-key broken) got 200, not 422',
    )
    expect(failure?.request.headers['x-api-key']).toBeUndefined()
  }, 20_000)

  it('passes a correct app with zod, valibot and yup schemas through every phase, examples included', async () => {
    const app = express()
    app.use(shapeguard())
    app.use(express.json())
    const zodBody = z.object({
      name: z
        .string()
        .min(1)
        .max(30)
        .meta({ examples: ['Ada'] }),
      size: z.enum(['s', 'm', 'l']).default('m'),
      shape: Shape.optional(),
      tags: z.array(z.string().max(8)).min(1).max(5),
      email: z.email(),
      pack: z.number().int().min(3).max(99).multipleOf(3),
      ratio: z.number().gt(0).lt(1).optional(),
    })
    const valibotBody = valibotAdapter(
      v.object({
        // valibot 1.0 has no examples(): under the lowest peers this route has none.
        sku: valibotHasExamples
          ? v.pipe(v.string(), v.regex(/^[A-Z]{3}-\d{3}$/), v.examples(['ABC-123']))
          : v.pipe(v.string(), v.regex(/^[A-Z]{3}-\d{3}$/)),
        qty: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(99)),
        id: v.pipe(v.string(), v.uuid()),
      }),
    )
    const yupQuery = yupAdapter(
      y.object({
        q: y
          .string()
          .min(2)
          .max(20)
          .required()
          .meta({ examples: ['shoes'] }),
        page: y.number().integer().min(1).max(50),
      }),
    )
    const ok = (_req: unknown, res: { ok(o: object): void }) => res.ok({ data: null })
    app.post('/zod', ...handle({ body: zodBody }, ok))
    app.post('/valibot', ...handle({ body: valibotBody }, ok))
    app.get('/yup', ...handle({ query: yupQuery }, ok))
    app.use(errorHandler())
    const report = await fuzzRoutes(app, { seed: 3, runs: 30 })
    expect(report.failures).toEqual([])
    expect(report.routes.map((r) => [r.route, r.notes])).toEqual([
      ['POST /zod', []],
      ['POST /valibot', []],
      ['GET /yup', []],
    ])
    for (const r of report.routes) {
      if (r.route !== 'POST /valibot' || valibotHasExamples)
        expect(r.phases.examples).toBeGreaterThan(0)
      expect(r.phases.boundaries).toBeGreaterThan(10)
      expect(r.phases.random).toBe(30)
    }
  }, 30_000)

  it('sends the same boundaries list whatever the seed', async () => {
    const app = oneRoute(
      express,
      {
        body: z.object({ name: z.string().max(20), size: z.enum(['s', 'm']), shape: Shape }),
        query: z.object({ page: z.coerce.number().int().min(1).max(9).optional() }),
      },
      () => {},
    )
    const listed = async (seed: number) => {
      const report = await fuzzRoutes(app, { seed, phases: ['boundaries'], record: true })
      return report.exchanges!.map((e) => [e.request.kind, e.request.url, e.request.body])
    }
    const first = await listed(1)
    expect(first.length).toBeGreaterThan(20)
    expect(await listed(987654)).toEqual(first)
  }, 20_000)

  it("says when a schema's own example is invalid, and sends it not", async () => {
    const body = z.object({
      age: z
        .number()
        .int()
        .min(0)
        .meta({ examples: [-4] }),
    })
    const report = await fuzzRoutes(
      oneRoute(express, { body }, () => {}),
      { seed: 1, runs: 5 },
    )
    expect(report.failures).toEqual([])
    expect(report.routes[0]!.notes).toEqual([
      "examples: body's example 1 is rejected by its own schema",
    ])
  }, 20_000)
})
