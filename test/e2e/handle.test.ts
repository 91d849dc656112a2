import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import {
  AppError,
  configureLogger,
  createDTO,
  createRouter,
  defineRoute,
  errorHandler,
  handle,
  shapeguard,
} from '../../src/index.js'
import { type Express, hosts } from '../support/e2e.js'

beforeAll(() => {
  configureLogger({ silent: true })
})

const CreateUser = createDTO(z.object({ name: z.string().min(1), email: z.email() }))
const User = z.object({ id: z.number(), name: z.string(), email: z.email() })

const createUser = defineRoute({
  body: CreateUser,
  params: z.object({ org: z.string().min(2) }),
  query: z.object({ notify: z.stringbool().default(false) }),
  headers: z.object({ 'x-actor': z.string() }),
  response: User,
  allErrors: true,
  limits: { maxDepth: 5 },
  sanitize: { exposeSchemaCodes: true },
  transform: (body) => ({ ...body, name: body.name.trim() }),
})

function appWith(express: Express) {
  const app = express()
  app.use(shapeguard({ debug: true }))
  app.use(express.json())
  return app
}

describe.each(hosts)('handle() on %s', (_, express) => {
  const app = appWith(express)
  const seen: unknown[] = []
  app.post(
    '/orgs/:org/users',
    ...handle(createUser, async (req, res) => {
      seen.push({ notify: req.query.notify, actor: req.headers['x-actor'] })
      await Promise.resolve()
      res.created({ data: { id: 1, ...req.body, password: 'x' } as never })
    }),
  )
  app.get(
    '/boom',
    ...handle({}, async () => {
      throw AppError.forbidden()
    }),
  )
  app.get(
    '/string',
    ...handle({}, async () => {
      throw 'route'
    }),
  )
  const router = createRouter()
  router.get(
    '/:id',
    ...handle({ params: z.object({ id: z.coerce.number() }) }, (req, res) =>
      res.ok({ data: req.params.id + 1 }),
    ),
  )
  app.use('/r', router)
  app.use(errorHandler())

  it('validates, transforms, runs the async handler and strips its response', async () => {
    const res = await request(app)
      .post('/orgs/acme/users?notify=true')
      .set('x-actor', 'me')
      .send({ name: ' Ada ', email: 'ada@example.com', admin: true })
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({ id: 1, name: 'Ada', email: 'ada@example.com' })
    expect(seen.at(-1)).toEqual({ notify: true, actor: 'me' })
  })

  it('keeps the route options: allErrors and sanitize', async () => {
    const res = await request(app).post('/orgs/acme/users').set('x-actor', 'me').send({})
    expect(res.status).toBe(422)
    expect(res.body.error.details).toEqual([
      { field: 'name', message: expect.any(String), code: 'invalid_type' },
      { field: 'email', message: expect.any(String), code: 'invalid_type' },
    ])
  })

  it('forwards async errors, thrown non-errors included', async () => {
    expect((await request(app).get('/boom')).status).toBe(403)
    const res = await request(app).get('/string')
    expect(res.status).toBe(500)
  })

  it('spreads into createRouter routes', async () => {
    expect((await request(app).get('/r/41')).body.data).toBe(42)
  })
})

describe('defineRoute()', () => {
  it('keeps every field of the definition', () => {
    expect(Object.keys(createUser).sort()).toEqual(
      [
        'allErrors',
        'body',
        'headers',
        'limits',
        'params',
        'query',
        'response',
        'sanitize',
        'transform',
      ].sort(),
    )
    expect(createUser.limits).toEqual({ maxDepth: 5 })
    expect(Object.isFrozen(createUser)).toBe(true)
  })

  it('checks schemas and options at definition', () => {
    expect(() => defineRoute({ body: 'nope' as never })).toThrow(/^shapeguard: body: /)
    expect(() => defineRoute({ response: z.string(), sends: z.number() as never })).toThrow(
      /response and sends are both given/,
    )
    expect(() => defineRoute({ limits: { maxArrayLength: 'x' as never } })).toThrow(
      /maxArrayLength/,
    )
  })

  it('takes a response schema with async checks (the answer waits for them)', () => {
    const Async = z.object({ a: z.string().refine(async () => true) })
    expect(() => defineRoute({ response: Async })).not.toThrow()
  })
})

describe('handle() arguments', () => {
  it('needs a handler function', () => {
    expect(() => handle({}, undefined as never)).toThrow(/needs a handler function/)
  })
})
