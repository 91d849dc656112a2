import express from 'express'
import { beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { configureLogger, errorHandler, file, handle, shapeguard } from '../../src/index.js'
import { fuzzRoutes } from '../../src/testing/index.js'

// fuzzRoutes finds nothing on correct routes at the edges of its cases: a file field smaller than
// the executable it sends as a wrong type.

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
})
