import { beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import {
  configureLogger,
  errorHandler,
  handle,
  notFoundHandler,
  type ShapeguardConfig,
  shapeguard,
} from '../../src/index.js'
import { fuzzRoutes } from '../../src/testing/index.js'
import { type Express, hosts } from '../support/e2e.js'

// fuzzRoutes holds an app that answers in problem details to its own format: it passes when every
// error answer is application/problem+json matching the document, and catches one that is not.

beforeAll(() => configureLogger({ silent: true }))

const runs = Math.min(Number(process.env.FUZZ_RUNS ?? 25), 2000)

/** An API whose `/stock` answers 409 in the app's format, or, with `wrong`, as an envelope. */
function shop(express: Express, config: ShapeguardConfig, wrong = false) {
  const app = express()
  app.use(shapeguard(config))
  app.use(express.json())
  app.post(
    '/users',
    ...handle(
      { body: z.object({ name: z.string().min(1).max(20), age: z.number().int().min(0) }) },
      (req, res) => res.created({ data: req.body }),
    ),
  )
  app.get(
    '/users/:id',
    ...handle({ params: z.object({ id: z.coerce.number().int().min(1) }) }, (req, res) =>
      res.ok({ data: { id: req.params.id } }),
    ),
  )
  app.get(
    '/search',
    ...handle(
      { query: z.object({ q: z.string().max(10) }), rateLimit: { windowMs: 60_000, max: 10 } },
      (_req, res) => res.ok({ data: [] }),
    ),
  )
  app.post(
    '/stock',
    ...handle({ body: z.object({ sku: z.string().min(1).max(8) }) }, (_req, res) => {
      if (!wrong) return res.fail({ code: 'OUT_OF_STOCK', message: 'Out of stock', status: 409 })
      res.status(409).json({
        success: false,
        message: 'Out of stock',
        error: { code: 'OUT_OF_STOCK', message: 'Out of stock', details: null },
      })
    }),
  )
  app.use(notFoundHandler(), errorHandler())
  return app
}

const problems: ShapeguardConfig = { errors: { format: 'problem+json' } }
const statuses = { 'POST /stock': [409] }

describe.each(hosts)('fuzzRoutes on %s', (_, express) => {
  it('finds no broken invariant on an app answering in problem details', async () => {
    const report = await fuzzRoutes(shop(express, problems), { runs, seed: 7, statuses })
    expect(report.failures).toEqual([])
    const routes = report.routes.filter((r) => r.route.includes(' '))
    expect(routes.map((r) => r.phases.random)).toEqual([runs, runs, runs, runs])
    // And 22 of undeclared methods, each a 405 in problem details.
    expect(report.routes.find((r) => r.route === 'methods')?.requests).toBe(22)
  }, 60_000)

  it('catches an error answer that is not in the app’s format', async () => {
    await expect(
      fuzzRoutes(shop(express, problems, true), {
        runs,
        seed: 7,
        statuses,
        routes: ['POST /stock'],
      }),
    ).rejects.toThrow(
      'POST /stock: answered 409 without the Content-Type application/problem+json of its problem details',
    )
    // The same envelope is right for an app that answers in envelopes.
    const report = await fuzzRoutes(shop(express, {}, true), {
      runs,
      seed: 7,
      statuses,
      routes: ['POST /stock'],
    })
    expect(report.failures).toEqual([])
  }, 60_000)
})
