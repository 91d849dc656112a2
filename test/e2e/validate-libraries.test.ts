import { type } from 'arktype'
import request from 'supertest'
import * as v from 'valibot'
import { beforeAll, describe, expect, it } from 'vitest'
import * as yup from 'yup'
import * as z from 'zod'
import { valibotAdapter } from '../../src/adapters/valibot/index.js'
import { yupAdapter } from '../../src/adapters/yup/index.js'
import {
  configureLogger,
  errorHandler,
  type Schema,
  shapeguard,
  validate,
} from '../../src/index.js'
import { hosts } from '../support/e2e.js'

beforeAll(() => {
  configureLogger({ silent: true })
})

// The same create-user route in every library: body, query (coerced page, repeatable tags) and
// params. test/fixtures/schemas.ts (the adapters' shared fixtures) is not written yet; these
// mirror it until it lands.
interface Fixture {
  body: Schema
  query: Schema
  params: Schema
}

const libraries: Record<string, Fixture> = {
  zod: {
    body: z.object({ name: z.string().min(1), email: z.email(), age: z.number().int().optional() }),
    query: z.object({
      page: z.coerce.number().int().min(1).default(1),
      tags: z.array(z.string()).optional(),
    }),
    params: z.object({ org: z.string().min(2) }),
  },
  valibot: {
    body: valibotAdapter(
      v.object({
        name: v.pipe(v.string(), v.minLength(1)),
        email: v.pipe(v.string(), v.email()),
        age: v.optional(v.pipe(v.number(), v.integer())),
      }),
    ),
    query: valibotAdapter(
      v.object({
        page: v.optional(v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(1)), '1'),
        tags: v.optional(v.array(v.string())),
      }),
    ),
    params: valibotAdapter(v.object({ org: v.pipe(v.string(), v.minLength(2)) })),
  },
  yup: {
    body: yupAdapter(
      yup
        .object({
          name: yup.string().min(1).required(),
          email: yup.string().email().required(),
          age: yup.number().integer().strict(),
        })
        .noUnknown()
        .strict(false),
    ),
    query: yupAdapter(
      yup.object({
        page: yup.number().integer().min(1).default(1),
        tags: yup.array(yup.string().required()),
      }),
    ),
    params: yupAdapter(yup.object({ org: yup.string().min(2).required() })),
  },
  arktype: {
    body: type({ name: 'string > 0', email: 'string.email', 'age?': 'number.integer' }),
    query: type({ 'page?': 'string.integer.parse', 'tags?': 'string[]' }),
    params: type({ org: 'string >= 2' }),
  },
}

describe.each(hosts)('validate() with every schema library on %s', (_, express) => {
  describe.each(Object.entries(libraries))('%s', (_lib, f) => {
    const app = express()
    app.use(shapeguard({ debug: true }))
    app.use(express.json())
    app.post('/orgs/:org/users', validate(f), (req, res) => {
      res.json({ body: req.body, query: req.query, params: req.params })
    })
    app.use(errorHandler())

    it('accepts a valid request and strips unknown body keys', async () => {
      const res = await request(app)
        .post('/orgs/acme/users?page=2&tags=a&tags=b')
        .send({ name: 'Ada', email: 'ada@example.com', age: 36, admin: true })
      expect(res.status).toBe(200)
      expect(res.body.body).toMatchObject({ name: 'Ada', email: 'ada@example.com', age: 36 })
      expect(res.body.params).toEqual({ org: 'acme' })
      expect(Number(res.body.query.page)).toBe(2)
      expect(res.body.query.tags).toEqual(['a', 'b'])
    })

    it('answers 422 naming the failing field', async () => {
      const res = await request(app).post('/orgs/acme/users').send({ name: 'Ada', email: 'nope' })
      expect(res.status).toBe(422)
      expect(res.body.error.code).toBe('VALIDATION_ERROR')
      expect(res.body.error.details.field).toBe('email')
      expect(typeof res.body.error.details.message).toBe('string')
    })

    it('answers body is required, 422 for a bad param, 422 for a non-numeric page', async () => {
      expect((await request(app).post('/orgs/acme/users')).body.error.details).toEqual({
        field: 'body',
        message: 'body is required',
      })
      const ok = { name: 'Ada', email: 'ada@example.com' }
      const param = await request(app).post('/orgs/a/users').send(ok)
      expect(param.status).toBe(422)
      expect(param.body.error.details.field).toBe('org')
      const page = await request(app).post('/orgs/acme/users?page=abc').send(ok)
      expect(page.status).toBe(422)
      expect(page.body.error.details.field).toBe('page')
    })
  })
})
