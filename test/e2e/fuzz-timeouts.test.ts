import type { Response } from 'express'
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

// fuzzRoutes takes the 503 a route's own timeout (or the app's load shedding) answers with as a
// documented answer, counted in the route's notes; a 503 on a route without one still fails.
// The handler's slowness is real; the 503 it gets is written here as the runtime's overtaking
// answer writes it (the app's error format, Retry-After), so the test holds with or without it:
// when the runtime's timer answers first, what the handler sends afterwards is dropped.

const query = z.object({ n: z.coerce.number().int().min(0).max(1000) })
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// Every third request takes longer than the route's limit of `ms`.
function sometimesSlow(ms: number, code: 'HANDLER_TIMEOUT' | 'OVERLOADED') {
  let count = 0
  return async (_req: unknown, res: Response) => {
    count++
    if (count % 3 !== 0) return res.ok({ data: { count } })
    await sleep(ms + 20)
    if (res.headersSent) return
    res.setHeader('Retry-After', '5')
    throw AppError.custom(code, 'Try again later', 503)
  }
}

function appOf(express: Express, config: ShapeguardConfig = {}) {
  const app = express()
  app.use(shapeguard(config))
  app.get('/timed', ...handle({ query, timeout: 30 }, sometimesSlow(30, 'HANDLER_TIMEOUT')))
  app.use(errorHandler())
  return app
}

beforeAll(() => configureLogger({ silent: true }))
afterAll(() => configureLogger({ silent: true }))

describe.each(hosts)('fuzzRoutes and 503 answers of the lifecycle on %s', (_, express) => {
  it('passes a route whose handler sometimes outlasts its timeout, counting its 503 HANDLER_TIMEOUT', async () => {
    const report = await fuzzRoutes(appOf(express), { runs: 12, seed: 7, phases: ['random'] })
    expect(report.failures).toEqual([])
    const [route] = report.routes
    expect(route?.notes).toHaveLength(1)
    expect(route?.notes[0]).toMatch(
      /^\d+ of 12 requests answered 503 HANDLER_TIMEOUT \(the route's timeout\): documented, not a failure$/,
    )
  }, 30_000)

  it("passes the app's timeout, under problem+json, and OVERLOADED with overload on", async () => {
    const app = express()
    app.use(
      shapeguard({
        timeout: 30,
        overload: { maxHeapUsedBytes: 2 ** 50 },
        errors: { format: 'problem+json' },
      }),
    )
    app.get('/timed', ...handle({ query }, sometimesSlow(30, 'HANDLER_TIMEOUT')))
    app.get('/shed', ...handle({ query }, sometimesSlow(0, 'OVERLOADED')))
    app.use(errorHandler())
    const report = await fuzzRoutes(app, { runs: 9, seed: 7, phases: ['random'] })
    expect(report.failures).toEqual([])
    expect(report.routes.map((r) => r.notes.join())).toEqual([
      expect.stringContaining("503 HANDLER_TIMEOUT (the route's timeout)"),
      expect.stringContaining('503 OVERLOADED (load shedding)'),
    ])
  }, 30_000)

  it('passes a stream that sometimes goes silent past its idle limit, counting its HANDLER_TIMEOUT ends', async () => {
    const Tick = z.object({ n: z.number() })
    let count = 0
    const app = express()
    app.use(shapeguard())
    app.get(
      '/feed',
      ...handle({ query, events: { tick: Tick }, timeout: { idle: 50 } }, async (req, res) => {
        count++
        const stream = res.sse({ heartbeat: false })
        await stream.send('tick', { n: count })
        if (count % 2 === 0) return stream.close()
        // Silent until the idle limit ends the stream (bounded).
        await Promise.race([
          new Promise((resolve) => req.signal.addEventListener('abort', resolve, { once: true })),
          sleep(2000),
        ])
      }),
    )
    app.use(errorHandler())
    const report = await fuzzRoutes(app, { runs: 8, seed: 3, phases: ['random'] })
    expect(report.failures).toEqual([])
    expect(report.routes[0]?.notes).toEqual([
      expect.stringMatching(
        /^\d+ of 8 requests answered a stream ended by the route's time limit \(HANDLER_TIMEOUT\): documented, not a failure$/,
      ),
    ])
  }, 30_000)

  it('reports a 503 on a route without a timeout, and one without Retry-After', async () => {
    const app = express()
    app.use(shapeguard())
    app.get(
      '/untimed',
      ...handle({ query }, () => {
        throw AppError.custom('HANDLER_TIMEOUT', 'Try again later', 503)
      }),
    )
    app.get(
      '/bare',
      ...handle({ query, timeout: 60_000 }, () => {
        throw AppError.custom('HANDLER_TIMEOUT', 'Try again later', 503)
      }),
    )
    app.use(errorHandler())
    const error = (await fuzzRoutes(app, { runs: 3, seed: 1 }).catch(
      (e: unknown) => e,
    )) as FuzzError
    expect(error).toBeInstanceOf(Error)
    expect(error.report.failures.map((f) => [f.route, f.invariant])).toEqual([
      ['GET /untimed', 'answered 503: a request must never get a 5xx'],
      ['GET /bare', 'answered 503 HANDLER_TIMEOUT without a Retry-After header of whole seconds'],
    ])
  }, 30_000)
})
