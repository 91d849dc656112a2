import { type } from 'arktype'
import request from 'supertest'
import * as v from 'valibot'
import { beforeAll, describe, expect, it } from 'vitest'
import * as yup from 'yup'
import * as z from 'zod'
import {
  AppError,
  configureLogger,
  errorHandler,
  type ShapeguardConfig,
  shapeguard,
  validate,
  zodAdapter,
} from '../../src/index.js'
import { type Express, hosts } from '../support/e2e.js'
import { yupIsStandard } from '../support/peer-features.js'

beforeAll(() => {
  configureLogger({ silent: true })
})

const User = z.object({
  name: z.string().min(1),
  email: z.email(),
  role: z.enum(['admin', 'viewer']).default('viewer'),
})
const Query = z.object({
  page: z.coerce.number().int().min(1).default(1),
  tags: z.array(z.string()).optional(),
})

function appWith(express: Express, config: ShapeguardConfig = { debug: true }) {
  const app = express()
  app.use(shapeguard(config))
  app.use(express.json())
  return app
}

function finish(app: ReturnType<Express>) {
  app.use(errorHandler())
  return app
}

const echo = (
  req: { body: unknown; params: unknown; query: unknown },
  res: { json(x: unknown): void },
) => res.json({ body: req.body, params: req.params, query: req.query })

describe.each(hosts)('validate() body on %s', (_, express) => {
  const app = appWith(express)
  app.post('/users', validate({ body: User }), echo)
  finish(app)

  it('puts the validated, stripped body on req.body', async () => {
    const res = await request(app)
      .post('/users')
      .send({ name: 'Ada', email: 'ada@example.com', isAdmin: true })
    expect(res.status).toBe(200)
    expect(res.body.body).toEqual({ name: 'Ada', email: 'ada@example.com', role: 'viewer' })
  })

  it('answers 422 VALIDATION_ERROR with the first issue as details; the handler never runs', async () => {
    const res = await request(app).post('/users').send({ name: '', email: 'nope' })
    expect(res.status).toBe(422)
    expect(res.body.error.code).toBe('VALIDATION_ERROR')
    expect(res.body.error.details).toEqual({ field: 'name', message: expect.any(String) })
    expect(res.body.error.details.code).toBeUndefined()
  })

  it('answers body is required for an empty body', async () => {
    for (const req of [request(app).post('/users'), request(app).post('/users').type('json')]) {
      const res = await req
      expect(res.status).toBe(422)
      expect(res.body.error.details).toEqual({ field: 'body', message: 'body is required' })
    }
  })

  it('answers Expected object, received array for an array body', async () => {
    const res = await request(app)
      .post('/users')
      .send([{ name: 'Ada' }])
    expect(res.status).toBe(422)
    expect(res.body.error.details).toEqual({
      field: 'body',
      message: 'Expected object, received array',
    })
  })

  it('accepts a missing body when the schema allows undefined', async () => {
    const a = appWith(express)
    a.post('/opt', validate({ body: User.optional() }), echo)
    const res = await request(finish(a)).post('/opt')
    expect(res.status).toBe(200)
    expect(res.body.body).toBeUndefined()
  })
})

describe.each(hosts)('validate() params, query and headers on %s', (_, express) => {
  const app = appWith(express)
  app.get(
    '/users/:id',
    validate({
      params: z.object({ id: z.coerce.number().int() }),
      query: Query,
      headers: z.object({ 'x-tenant': z.string().min(2) }),
    }),
    (req, res) => {
      res.json({
        params: req.params,
        query: req.query,
        tenant: req.headers['x-tenant'],
        host: req.get('host') !== undefined,
      })
    },
  )
  finish(app)

  it('coerces params and query and keeps undeclared headers readable', async () => {
    const res = await request(app).get('/users/7?page=3&extra=1').set('x-tenant', 'acme')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ params: { id: 7 }, query: { page: 3 }, tenant: 'acme', host: true })
  })

  it('answers 422 for a non-numeric coerced query value', async () => {
    const res = await request(app).get('/users/7?page=abc').set('x-tenant', 'acme')
    expect(res.status).toBe(422)
    expect(res.body.error.details.field).toBe('page')
  })

  it('answers 422 for a bad route parameter and for a missing header', async () => {
    const p = await request(app).get('/users/x').set('x-tenant', 'acme')
    expect(p.status).toBe(422)
    expect(p.body.error.details.field).toBe('id')
    const h = await request(app).get('/users/7')
    expect(h.status).toBe(422)
    expect(h.body.error.details.field).toBe('x-tenant')
  })

  it('allows a repeated key the query schema declares as an array, and refuses others', async () => {
    const ok = await request(app).get('/users/1?tags=a&tags=b').set('x-tenant', 'acme')
    expect(ok.body.query).toEqual({ page: 1, tags: ['a', 'b'] })
    const bad = await request(app).get('/users/1?page=1&page=2').set('x-tenant', 'acme')
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe('PARAM_POLLUTION')
  })
})

describe.each(hosts)('validate() guards before schemas on %s', (_, express) => {
  const app = appWith(express, { debug: true, validation: { limits: { maxArrayLength: 5 } } })
  app.post('/items', validate({ body: z.object({ items: z.array(z.number()) }) }), echo)
  app.post(
    '/big',
    validate({ body: z.object({ items: z.array(z.number()) }), limits: { maxArrayLength: 50 } }),
    echo,
  )
  finish(app)

  it('answers 415 for a body the parsers do not understand', async () => {
    const res = await request(app).post('/items').set('content-type', 'text/plain').send('hello')
    expect(res.status).toBe(415)
    expect(res.body.error.code).toBe('INVALID_CONTENT_TYPE')
  })

  it('answers 400 PROTO_POLLUTION for __proto__ in the body', async () => {
    const res = await request(app)
      .post('/items')
      .type('json')
      .send('{"items":[1],"__proto__":{"polluted":true}}')
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('PROTO_POLLUTION')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('applies global limits, and route limits over them', async () => {
    const items = Array.from({ length: 10 }, (_, i) => i)
    const global = await request(app).post('/items').send({ items })
    expect(global.status).toBe(400)
    expect(global.body.error.code).toBe('BODY_ARRAY_TOO_LARGE')
    const route = await request(app).post('/big').send({ items })
    expect(route.status).toBe(200)
  })
})

describe.each(hosts)('validate() options on %s', (_, express) => {
  const Role = z.object({ role: z.enum(['admin', 'viewer']), name: z.string().min(3) })

  it('returns every issue of a part with allErrors', async () => {
    const app = appWith(express)
    app.post('/all', validate({ body: Role, allErrors: true }), echo)
    const res = await request(finish(app)).post('/all').send({ role: 'x', name: 'a' })
    expect(res.body.error.details).toHaveLength(2)
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['role', 'name'])
  })

  it('shows enum values in development and hides them in production', async () => {
    for (const debug of [true, false]) {
      const app = appWith(express, { debug })
      app.post('/r', validate({ body: Role }), echo)
      const res = await request(finish(app)).post('/r').send({ role: 'x', name: 'abc' })
      const message: string = res.body.error.details.message
      if (debug) expect(message).toContain('admin')
      else expect(message).toBe('Invalid option')
    }
  })

  it('follows validation.expose* globally and sanitize per route', async () => {
    const app = appWith(express, {
      debug: true,
      validation: { exposeFieldName: false, exposeMessage: false, exposeSchemaCodes: true },
    })
    app.post('/g', validate({ body: Role }), echo)
    app.post('/r', validate({ body: Role, sanitize: { exposeFieldName: true } }), echo)
    finish(app)
    const g = await request(app).post('/g').send({ role: 'admin', name: 'a' })
    expect(g.body.error.details).toEqual({
      field: 'body',
      message: 'Invalid value',
      code: 'too_small',
    })
    const r = await request(app).post('/r').send({ role: 'admin', name: 'a' })
    expect(r.body.error.details).toEqual({
      field: 'name',
      message: 'Invalid value',
      code: 'too_small',
    })
  })

  it('trims and lower-cases strings before the schemas with validation.strings', async () => {
    const app = appWith(express, { validation: { strings: { trim: true, lowercase: true } } })
    app.post(
      '/s',
      validate({ body: z.object({ email: z.email(), tags: z.array(z.string()) }) }),
      echo,
    )
    const res = await request(finish(app))
      .post('/s')
      .send({ email: '  Ada@Example.COM ', tags: [' A '] })
    expect(res.status).toBe(200)
    expect(res.body.body).toEqual({ email: 'ada@example.com', tags: ['a'] })
  })

  it('runs transform after validation and before the handler, sync or async', async () => {
    const app = appWith(express)
    app.post(
      '/t',
      validate({ body: User, transform: async (b) => ({ ...b, name: b.name.toUpperCase() }) }),
      echo,
    )
    app.post(
      '/fail',
      validate({
        body: User,
        transform: () => {
          throw AppError.conflict('User')
        },
      }),
      echo,
    )
    app.post(
      '/crash',
      validate({
        body: User,
        transform: () => {
          throw 'not an error'
        },
      }),
      echo,
    )
    finish(app)
    const ok = await request(app).post('/t').send({ name: 'ada', email: 'a@b.co' })
    expect(ok.body.body.name).toBe('ADA')
    const fail = await request(app).post('/fail').send({ name: 'ada', email: 'a@b.co' })
    expect(fail.status).toBe(409)
    const crash = await request(app).post('/crash').send({ name: 'ada', email: 'a@b.co' })
    expect(crash.status).toBe(500)
    expect(crash.body.error.code).toBe('INTERNAL_ERROR')
  })

  it('waits for schemas with async checks', async () => {
    const Async = z.object({
      name: z.string().refine(async (s) => s !== 'taken', { message: 'Name is taken' }),
    })
    const app = appWith(express)
    app.post('/a', validate({ body: Async }), echo)
    finish(app)
    expect((await request(app).post('/a').send({ name: 'free', x: 1 })).body.body).toEqual({
      name: 'free',
    })
    const taken = await request(app).post('/a').send({ name: 'taken' })
    expect(taken.body.error.details).toEqual({ field: 'name', message: 'Name is taken' })
  })

  it('takes adapters and Standard Schema objects (ArkType, bare valibot and yup)', async () => {
    const app = appWith(express)
    app.post('/zod', validate({ body: zodAdapter(User) }), echo)
    app.post('/ark', validate({ body: type({ name: 'string', email: 'string.email' }) }), echo)
    app.post(
      '/valibot',
      validate({ body: v.object({ name: v.string(), email: v.string() }) }),
      echo,
    )
    const bareYup = yup.object({ name: yup.string().required(), email: yup.string().required() })
    // Before yup 1.7 a yup schema is no Standard Schema object: refused, naming yupAdapter.
    if (yupIsStandard) app.post('/yup', validate({ body: bareYup }), echo)
    else expect(() => validate({ body: bareYup })).toThrow(/needs yup 1\.7 or later.*yupAdapter/)
    finish(app)
    for (const path of ['/zod', '/ark', '/valibot', ...(yupIsStandard ? ['/yup'] : [])]) {
      const ok = await request(app).post(path).send({ name: 'Ada', email: 'ada@example.com' })
      expect(ok.status, path).toBe(200)
      const bad = await request(app).post(path).send({ email: 'ada@example.com' })
      expect(bad.status, path).toBe(422)
      expect(bad.body.error.details.field, path).toBe('name')
    }
  })

  it('keeps each app its own configuration in one process', async () => {
    const dev = appWith(express, { debug: true })
    const prod = appWith(express, { debug: false, validation: { exposeFieldName: false } })
    for (const app of [dev, prod]) finish(app.post('/r', validate({ body: Role }), echo))
    const [a, b] = await Promise.all([
      request(dev).post('/r').send({ role: 'x', name: 'abc' }),
      request(prod).post('/r').send({ role: 'x', name: 'abc' }),
    ])
    expect(a.body.error.details.field).toBe('role')
    expect(a.body.error.details.message).toContain('admin')
    expect(b.body.error.details).toEqual({ field: 'body', message: 'Invalid option' })
  })

  it('validates without shapeguard() mounted, with the default configuration', async () => {
    const app = express()
    app.use(express.json())
    app.post('/u', validate({ body: User }), echo)
    app.use(errorHandler())
    const res = await request(app).post('/u').send({ name: 'Ada' })
    expect(res.status).toBe(422)
    expect(res.body.error.details.field).toBe('email')
  })
})

describe('validate() at definition', () => {
  it('throws naming the field for something that is not a schema', () => {
    expect(() => validate({ body: { name: 'string' } as never })).toThrow(
      /^shapeguard: body: expected a zod schema/,
    )
    expect(() => validate({ query: 42 as never })).toThrow(/^shapeguard: query: (?!.*shapeguard)/)
  })

  it('throws naming a bad option', () => {
    expect(() => validate({ allErrors: 'yes' as never })).toThrow(/allErrors must be a boolean/)
    expect(() => validate({ limits: { maxDepth: -1 } })).toThrow(/maxDepth/)
    expect(() => validate({ sanitize: { exposeMessage: 1 as never } })).toThrow(
      /sanitize\.exposeMessage: must be a boolean/,
    )
    expect(() => validate({ transform: 'x' as never })).toThrow(/transform must be a function/)
  })
})
