import { type } from 'arktype'
import request from 'supertest'
import * as v from 'valibot'
import { beforeAll, describe, expect, it } from 'vitest'
import * as y from 'yup'
import * as z from 'zod'
import { valibotAdapter } from '../../src/adapters/valibot/index.js'
import { yupAdapter } from '../../src/adapters/yup/index.js'
import { configureLogger, errorHandler, shapeguard, validate } from '../../src/index.js'
import { hosts } from '../support/e2e.js'

// A query key the schema declares as an array takes one value as a one-element array, as
// OpenAPI's `style: form, explode: true` reads `?ids=5`; Express's parsers give a string.

beforeAll(() => {
  configureLogger({ silent: true })
})

const lists = {
  zod: z.object({ ids: z.array(z.coerce.number()) }),
  valibotAdapter: valibotAdapter(
    v.object({ ids: v.array(v.pipe(v.string(), v.transform(Number))) }),
  ),
  yupAdapter: yupAdapter(y.object({ ids: y.array(y.number().required()).required() })),
  // Standard JSON Schema publishes the array keys.
  arktype: type({ ids: 'string.numeric.parse[]' }),
}

describe.each(hosts)('a single value of a query array on %s', (_, express) => {
  const app = express()
  app.use(shapeguard())
  const echo = (req: { query: unknown }, res: { json(x: unknown): void }) => res.json(req.query)
  for (const [name, query] of Object.entries(lists)) app.get(`/${name}`, validate({ query }), echo)
  app.get(
    '/shapes',
    validate({
      query: z.object({
        optional: z.array(z.string()).optional(),
        defaulted: z.array(z.string()).default([]),
        arrays: z.union([z.array(z.string()), z.tuple([z.number()])]).nullable(),
        refined: z
          .array(z.string())
          .refine((a) => a.length < 3)
          .optional(),
        // Keys that also take one value as it came.
        either: z.union([z.string(), z.array(z.string())]).optional(),
        csv: z
          .string()
          .transform((s) => s.split(','))
          .pipe(z.array(z.string()))
          .optional(),
        page: z.string().optional(),
      }),
    }),
    echo,
  )
  // User code that sees the value as it came.
  const split = (x: unknown) => (typeof x === 'string' ? x.split(',') : x)
  const pre = z.object({ pre: z.preprocess(split, z.array(z.string())) })
  app.get('/pre', validate({ query: pre }), echo)
  app.use(errorHandler())

  for (const name of Object.keys(lists)) {
    it(`is a one-element array: ${name}`, async () => {
      const one = await request(app).get(`/${name}?ids=5`)
      expect([one.status, one.body]).toEqual([200, { ids: [5] }])
      const two = await request(app).get(`/${name}?ids=5&ids=6`)
      expect([two.status, two.body]).toEqual([200, { ids: [5, 6] }])
    })
  }

  it('through optional, default, nullable and union-of-arrays wrappers and refinements', async () => {
    const res = await request(app).get('/shapes?optional=a&defaulted=b&arrays=c&refined=d')
    expect([res.status, res.body]).toEqual([
      200,
      { optional: ['a'], defaulted: ['b'], arrays: ['c'], refined: ['d'] },
    ])
  })

  it('never for a key that also takes one value, nor for one not declared an array', async () => {
    const res = await request(app).get('/shapes?either=a&csv=b,c&page=1&arrays=x')
    expect([res.status, res.body]).toEqual([
      200,
      { either: 'a', csv: ['b', 'c'], page: '1', arrays: ['x'], defaulted: [] },
    ])
    const pre = await request(app).get('/pre?pre=d,e')
    expect([pre.status, pre.body]).toEqual([200, { pre: ['d', 'e'] }])
    const repeated = await request(app).get('/shapes?arrays=x&page=1&page=2')
    expect([repeated.status, repeated.body.error.code]).toEqual([400, 'PARAM_POLLUTION'])
  })

  it('names the item of a one-element array in a 422', async () => {
    const res = await request(app).get('/zod?ids=x')
    expect([res.status, res.body.error.details.field]).toEqual([422, 'ids.0'])
  })
})
