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
import type { GuardLimits } from '../../src/runtime/guards/limits.js'
import { fuzzRoutes } from '../../src/testing/index.js'
import { type Express, hosts } from '../support/e2e.js'

beforeAll(() => configureLogger({ silent: true }))

/** POST /notes with `body`, its handler always fine; a JSON parser that takes a megabyte. */
function notesApp(
  express: Express,
  body: z.ZodType,
  options: { config?: ShapeguardConfig; limits?: Partial<GuardLimits> } = {},
) {
  const app = express()
  app.use(shapeguard(options.config))
  app.use(express.json({ limit: '1mb' }))
  const route = options.limits === undefined ? { body } : { body, limits: options.limits }
  app.post('/notes', ...handle(route, (_req, res) => res.created({ data: null })))
  app.use(notFoundHandler())
  app.use(errorHandler())
  return app
}

const runs = 20
const text = (schema: z.ZodType) => z.object({ text: schema })

// Each case finishes in a few seconds: a bound past the guards' limits is never built in full.
describe.each(hosts)('fuzzRoutes and bounds past the guard limits, on %s', (_, express) => {
  it('sends no string past maxStringLength for z.string().max(20000), and says so', async () => {
    const report = await fuzzRoutes(notesApp(express, text(z.string().max(20_000))), {
      runs,
      seed: 1,
      phases: ['random'],
    })
    expect(report.failures).toEqual([])
    expect(report.routes[0]).toEqual({
      route: 'POST /notes',
      requests: runs,
      phases: { random: runs },
      notes: [
        "body.text: no string over 10000 characters sent (the schema allows 20000): the guards' maxStringLength (10000) refuses it first",
      ],
    })
  }, 5_000)

  it('builds nothing near z.string().max(3e8) (it threw RangeError: Invalid string length)', async () => {
    const report = await fuzzRoutes(notesApp(express, text(z.string().max(3e8))), {
      runs,
      seed: 1,
    })
    expect(report.failures).toEqual([])
    expect(report.routes[0]!.phases.random).toBe(runs)
  }, 5_000)

  it.each([100_000, 20_000_000])(
    'skips z.string().min(%i), past maxStringLength, at once and with a note',
    async (min) => {
      const report = await fuzzRoutes(notesApp(express, text(z.string().min(min))), {
        runs,
        seed: 1,
      })
      expect(report.failures).toEqual([])
      expect(report.routes[0]!.requests).toBe(0)
      expect(report.skipped).toEqual([
        `POST /notes: body.text: every valid string has at least ${min} characters, past the guards' maxStringLength (10000); no requests: arbitrary(): the schema at body accepts no value that a request can carry`,
      ])
    },
    5_000,
  )

  it("follows the app's limits: min(100000) under a maxStringLength of 200000 is fuzzed", async () => {
    const app = notesApp(express, text(z.string().min(100_000)), {
      config: { validation: { limits: { maxStringLength: 200_000 } } },
    })
    const report = await fuzzRoutes(app, { runs, seed: 1, phases: ['random'] })
    expect(report.failures).toEqual([])
    expect(report.routes[0]).toEqual({
      route: 'POST /notes',
      requests: runs,
      phases: { random: runs },
      notes: [],
    })
    expect(report.skipped).toEqual([])
  }, 5_000)

  it("follows the route's own limits over the app's", async () => {
    const app = notesApp(express, text(z.string().max(100)), { limits: { maxStringLength: 50 } })
    const report = await fuzzRoutes(app, { runs, seed: 1, phases: ['random'] })
    expect(report.failures).toEqual([])
    expect(report.routes[0]!.notes).toEqual([
      "body.text: no string over 50 characters sent (the schema allows 100): the guards' maxStringLength (50) refuses it first",
    ])
  }, 5_000)

  it("expects the guards' 400, not a 422, for a body nested past maxDepth", async () => {
    const deep = z.object({ a: z.object({ b: z.object({ c: z.string().min(2) }) }) })
    const app = notesApp(express, deep, { limits: { maxDepth: 2 } })
    const report = await fuzzRoutes(app, { runs, seed: 1 })
    expect(report.failures).toEqual([])
  }, 5_000)
})
