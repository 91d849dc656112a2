import type { Request, Response } from 'express'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { valibotAdapter } from '../../src/adapters/valibot/index.js'
import { yupAdapter } from '../../src/adapters/yup/index.js'
import {
  configureLogger,
  errorHandler,
  type Schema,
  shapeguard,
  validate,
} from '../../src/index.js'
import {
  arktypeSchemas,
  emptyQueryParsed,
  invalidParams,
  invalidQuery,
  invalidUser,
  parsedQuery,
  valibotSchemas,
  validParams,
  validQuery,
  validUser,
  yupSchemas,
  zodSchemas,
} from '../fixtures/schemas.js'
import { hosts } from '../support/e2e.js'
import { yupIsStandard } from '../support/peer-features.js'

beforeAll(() => {
  configureLogger({ silent: true })
})

type Route = { body: Schema; query: Schema; params: Schema }

// The adapters' shared "create user" fixtures, through validate(): zod and ArkType as given,
// valibot and yup both through their adapters (compiled path) and as bare Standard Schemas.
// Each library stays the authority: ArkType (and yupAdapter with stripUnknown: false) keeps unknown
// body keys, yup reports issues in its own order, and a bare Standard Schema without JSON Schema
// cannot declare query arrays.
interface Case {
  schemas: Route
  strips: boolean
  queryArrays: boolean
}

const adapted = (wrap: (s: never) => Schema, s: Record<keyof Route, unknown>): Route => ({
  body: wrap(s.body as never),
  query: wrap(s.query as never),
  params: wrap(s.params as never),
})

const cases: Record<string, Case> = {
  zod: { schemas: zodSchemas, strips: true, queryArrays: true },
  valibotAdapter: {
    schemas: adapted(valibotAdapter, valibotSchemas),
    strips: true,
    queryArrays: true,
  },
  'valibot (Standard Schema)': { schemas: valibotSchemas, strips: true, queryArrays: false },
  yupAdapter: { schemas: adapted(yupAdapter, yupSchemas), strips: true, queryArrays: true },
  'yupAdapter (stripUnknown: false)': {
    schemas: adapted((s) => yupAdapter(s, { stripUnknown: false }), yupSchemas),
    strips: false,
    queryArrays: true,
  },
  // A bare yup schema is a Standard Schema object from yup 1.7 (test/support/peer-features.ts).
  ...(yupIsStandard
    ? {
        'yup (Standard Schema)': {
          schemas: yupSchemas as unknown as Route,
          strips: true,
          queryArrays: false,
        },
      }
    : {}),
  arktype: { schemas: arktypeSchemas, strips: false, queryArrays: true },
}

const toUrl = (q: Record<string, string | string[]>) =>
  new URLSearchParams(
    Object.entries(q).flatMap(([k, v]) =>
      (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]),
    ),
  ).toString()

describe.each(hosts)('shared fixtures through validate() on %s', (_, express) => {
  describe.each(Object.entries(cases))('%s', (_lib, { schemas, strips, queryArrays }) => {
    const app = express()
    app.use(shapeguard({ debug: true }))
    app.use(express.json())
    const echo = (req: Request, res: Response) => {
      res.json({ body: req.body, query: req.query, params: req.params })
    }
    app.post('/users/:id', validate(schemas), echo)
    app.post('/all/:id', validate({ ...schemas, allErrors: true }), echo)
    app.use(errorHandler())
    const { tags, ...singleQuery } = validQuery
    const { tags: _, ...parsedSingle } = parsedQuery

    it('accepts the valid request and coerces the query; strips unknown keys as the library does', async () => {
      const res = await request(app)
        .post(`/users/${validParams.id}?${toUrl(singleQuery)}`)
        .send({ ...validUser, isAdmin: true })
      expect(res.status).toBe(200)
      expect(res.body.query).toEqual(parsedSingle)
      expect(res.body.params).toEqual(validParams)
      expect(res.body.body).toEqual(strips ? validUser : { ...validUser, isAdmin: true })
    })

    it(`${queryArrays ? 'accepts' : 'refuses (PARAM_POLLUTION)'} a repeated key declared as an array`, async () => {
      const res = await request(app)
        .post(`/users/1?${toUrl(validQuery)}`)
        .send(validUser)
      if (queryArrays) expect(res.body.query).toEqual(parsedQuery)
      else expect(res.body.error.code).toBe('PARAM_POLLUTION')
    })

    it(`${queryArrays ? 'takes' : 'refuses'} a single value of a key declared as an array${queryArrays ? ' as a one-element array' : ''}`, async () => {
      const res = await request(app)
        .post(`/users/1?${toUrl({ ...singleQuery, tags: 'a' })}`)
        .send(validUser)
      // A schema whose array keys are unknown (a bare valibot or yup one) gets the string.
      if (queryArrays) expect([res.status, res.body.query.tags]).toEqual([200, ['a']])
      else expect(res.status).toBe(422)
    })

    it('applies query defaults', async () => {
      const res = await request(app).post('/users/1').send(validUser)
      expect(res.body.query).toEqual(emptyQueryParsed)
    })

    it('answers one issue, or every issue with allErrors', async () => {
      const first = await request(app).post('/users/1').send(invalidUser)
      expect(first.status).toBe(422)
      expect(['email', 'address.zip']).toContain(first.body.error.details.field)
      const all = await request(app).post('/all/1').send(invalidUser)
      const fields = all.body.error.details.map((d: { field: string }) => d.field)
      expect(fields.sort()).toEqual(['address.zip', 'email'])
    })

    it('answers 422 for the invalid query and params', async () => {
      const q = await request(app)
        .post(`/users/1?${toUrl(invalidQuery)}`)
        .send(validUser)
      expect(q.status).toBe(422)
      expect(['page', 'limit', 'sort']).toContain(q.body.error.details.field)
      const p = await request(app).post(`/users/${invalidParams.id}`).send(validUser)
      expect(p.status).toBe(422)
      expect(p.body.error.details.field).toBe('id')
    })
  })
})
