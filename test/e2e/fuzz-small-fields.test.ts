import express from 'express'
import { beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { configureLogger, errorHandler, file, handle, shapeguard } from '../../src/index.js'
import { fuzzRoutes } from '../../src/testing/index.js'

// fuzzRoutes finds nothing on correct routes at the edges of its cases: a file field smaller than
// the executable it sends as a wrong type; a record of cookies, which takes a hostile cookie's
// name and value as valid (the planted echo on a listed schema is in fuzz-uploads.test.ts).

beforeAll(() => configureLogger({ silent: true }))

describe('fuzzRoutes on correct routes at the edges of its cases', () => {
  it('sends a wrong-type file no larger than a small maxBytes, so the answer is 415', async () => {
    const app = express()
    app.use(shapeguard())
    app.post(
      '/tiny',
      ...handle(
        {
          files: { icon: file({ types: ['image/png'], maxBytes: 40 }) },
          response: z.object({ size: z.number() }),
        },
        (req, res) => res.ok({ data: { size: req.files.icon.size } }),
      ),
    )
    app.use(errorHandler())
    const report = await fuzzRoutes(app, { runs: 100, seed: 3 })
    expect(report.failures).toEqual([])
  }, 60_000)

  it('lets a record of cookies return the cookies it validated, hostile names included', async () => {
    const app = express()
    app.use(shapeguard())
    app.get(
      '/jar',
      ...handle(
        {
          cookies: z.record(z.string(), z.string().max(100)),
          response: z.record(z.string(), z.string()),
        },
        (req, res) => res.ok({ data: req.cookies }),
      ),
    )
    app.use(errorHandler())
    const report = await fuzzRoutes(app, { runs: 200, seed: 3 })
    expect(report.failures).toEqual([])
  }, 60_000)
})
