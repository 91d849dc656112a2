import fc from 'fast-check'
import request from 'supertest'
import * as v from 'valibot'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import * as y from 'yup'
import * as z from 'zod'
import { valibotAdapter } from '../../src/adapters/valibot/index.js'
import { yupAdapter } from '../../src/adapters/yup/index.js'
import {
  configureLogger,
  errorHandler,
  handle,
  type ShapeguardConfig,
  shapeguard,
  validate,
  withShape,
} from '../../src/index.js'
import { captureLogger, type Express, hosts, withLogging } from '../support/e2e.js'
import { yupIsStandard } from '../support/peer-features.js'

beforeAll(() => {
  configureLogger({ silent: true })
})

const User = z.object({
  id: z.number(),
  name: z.string(),
  tags: z.array(z.object({ label: z.string() })),
  meta: z.object({ admin: z.boolean() }).optional(),
})
// The same shape refusing any unknown key: whatever reaches the client must pass it.
const StrictUser = z.strictObject({
  id: z.number(),
  name: z.string(),
  tags: z.array(z.strictObject({ label: z.string() })),
  meta: z.strictObject({ admin: z.boolean() }).optional(),
})

// A user with undeclared keys at every depth, or any JSON value.
const extra = fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.jsonValue(), {
  maxKeys: 3,
})
const tag = fc.tuple(fc.record({ label: fc.string() }), extra).map(([t, e]) => ({ ...e, ...t }))
const user = fc
  .tuple(
    fc.record(
      {
        id: fc.double({ noNaN: true, noDefaultInfinity: true }),
        name: fc.string(),
        tags: fc.array(tag, { maxLength: 3 }),
        meta: fc.tuple(fc.record({ admin: fc.boolean() }), extra).map(([m, e]) => ({ ...e, ...m })),
      },
      { requiredKeys: ['id', 'name', 'tags'] },
    ),
    extra,
  )
  .map(([u, e]) => ({ ...e, ...u }))
const userOrAnything = fc.oneof(user, fc.jsonValue())

function appWith(express: Express, config: ShapeguardConfig = { debug: true }) {
  const app = express()
  app.use(shapeguard(config))
  app.use(express.json())
  return app
}

const secret = { id: 1, name: 'Ada', tags: [{ label: 'x', hidden: 1 }], password: 'hunter2' }

// An account with undeclared secrets at every depth, down to objects inside arrays (depth 3).
const account = {
  id: 7,
  passwordHash: '$2b$10$hash',
  profile: { name: 'Ada', ssn: '078-05-1120' },
  sessions: [{ device: 'phone', token: 'tok-1', owner: { id: 2, apiKey: 'key-1' } }],
}
const publicAccount = {
  id: 7,
  profile: { name: 'Ada' },
  sessions: [{ device: 'phone', owner: { id: 2 } }],
}
const accountSchemas = {
  zod: z.object({
    id: z.number(),
    profile: z.object({ name: z.string() }),
    sessions: z.array(z.object({ device: z.string(), owner: z.object({ id: z.number() }) })),
  }),
  yupAdapter: yupAdapter(
    y.object({
      id: y.number().required(),
      profile: y.object({ name: y.string().required() }),
      sessions: y.array(
        y.object({ device: y.string().required(), owner: y.object({ id: y.number() }) }),
      ),
    }),
  ),
  valibotAdapter: valibotAdapter(
    v.object({
      id: v.number(),
      profile: v.object({ name: v.string() }),
      sessions: v.array(v.object({ device: v.string(), owner: v.object({ id: v.number() }) })),
    }),
  ),
  // A bare valibot object: its Standard Schema validate is synchronous and strips, as valibot does.
  'bare-valibot': v.object({
    id: v.number(),
    profile: v.object({ name: v.string() }),
    sessions: v.array(v.object({ device: v.string(), owner: v.object({ id: v.number() }) })),
  }),
}

// A hand-written Standard Schema whose validate answers with a promise after `ms`: keeps id and
// profile.name.
function accountAfter(ms: number) {
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'hand-written',
      validate: async (value: unknown) => {
        await new Promise((resolve) => setTimeout(resolve, ms))
        const input = value as { id?: unknown; profile?: { name?: unknown } }
        if (typeof input?.id !== 'number')
          return { issues: [{ message: 'expected a number', path: ['id'] }] }
        return { value: { id: input.id, profile: { name: input.profile?.name } } }
      },
    },
  }
}
const asyncAccount = accountAfter(1)

describe.each(hosts)('response stripping on %s', (_, express) => {
  it('strips object, array, union and refined schemas', async () => {
    const app = appWith(express)
    const Refined = User.refine((u) => u.id > 0, { message: 'id must be positive' })
    const Union = z.union([z.object({ kind: z.literal('a'), a: z.number() }), User])
    app.get('/object', validate({ response: User }), (_q, res) => res.ok({ data: secret }))
    app.get('/array', validate({ sends: z.array(User) }), (_q, res) => res.ok({ data: [secret] }))
    app.get('/union', validate({ response: Union }), (_q, res) => res.ok({ data: secret }))
    app.get('/refined', validate({ response: Refined }), (_q, res) => res.ok({ data: secret }))
    app.use(errorHandler())
    const stripped = { id: 1, name: 'Ada', tags: [{ label: 'x' }] }
    expect((await request(app).get('/object')).body.data).toEqual(stripped)
    expect((await request(app).get('/array')).body.data).toEqual([stripped])
    expect((await request(app).get('/union')).body.data).toEqual(stripped)
    expect((await request(app).get('/refined')).body.data).toEqual(stripped)
  })

  it('removes undeclared fields at every depth, whichever library wrote the schema', async () => {
    const app = appWith(express)
    for (const [name, schema] of Object.entries(accountSchemas)) {
      app.get(`/${name}`, validate({ response: schema }), (_q, res) => res.ok({ data: account }))
    }
    app.use(errorHandler())
    for (const name of Object.keys(accountSchemas)) {
      const res = await request(app).get(`/${name}`)
      expect(res.status, name).toBe(200)
      expect(res.body.data, name).toEqual(publicAccount)
      for (const hidden of ['$2b$10$hash', '078-05-1120', 'tok-1', 'key-1'])
        expect(res.text, name).not.toContain(hidden)
    }
  })

  it('hands the handler a yupAdapter body without undeclared keys at any depth', async () => {
    const app = appWith(express)
    const body = accountSchemas.yupAdapter
    app.post('/accounts', validate({ body }), (req, res) => res.json(req.body))
    const res = await request(app).post('/accounts').send(account)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(publicAccount)
  })

  it('keeps undeclared fields only where the schema says so (yupAdapter stripUnknown: false)', async () => {
    const app = appWith(express)
    const schema = y.object({ id: y.number(), profile: y.object({ name: y.string() }) })
    app.get(
      '/keep',
      validate({ response: yupAdapter(schema, { stripUnknown: false }) }),
      (_q, res) => res.ok({ data: account }),
    )
    const res = await request(app).get('/keep')
    expect(res.body.data).toEqual(account)
  })

  // A bare yup schema is a Standard Schema object from yup 1.7 (test/support/peer-features.ts).
  it.runIf(yupIsStandard)('strips with a bare yup response schema as yupAdapter does', async () => {
    const app = appWith(express)
    const bare = y.object({ id: y.number(), profile: y.object({ name: y.string() }) })
    app.get('/bare', ...handle({ response: bare }, (_q, res) => res.ok({ data: account as never })))
    const res = await request(app).get('/bare')
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ id: account.id, profile: { name: account.profile.name } })
  })

  it('awaits an asynchronous response schema, then strips and sends', async () => {
    const app = appWith(express)
    const schemas = {
      standard: asyncAccount,
      zod: accountSchemas.zod.refine(async () => true),
      valibot: v.objectAsync({
        id: v.pipeAsync(
          v.number(),
          v.checkAsync(async () => true),
        ),
        profile: v.object({ name: v.string() }),
      }),
    }
    for (const [name, schema] of Object.entries(schemas)) {
      app.get(
        `/${name}`,
        ...handle({ response: schema }, (_q, res) => res.ok({ data: account as never })),
      )
      app.post(`/${name}`, validate({ sends: schema }), (_q, res) =>
        res.created({ data: account as never }),
      )
    }
    for (const name of Object.keys(schemas)) {
      const got = await request(app).get(`/${name}`)
      const posted = await request(app).post(`/${name}`)
      expect([got.status, posted.status]).toEqual([200, 201])
      for (const res of [got, posted]) {
        expect(res.body.success).toBe(true)
        expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|ssn|token|apiKey/)
      }
      expect(got.body.data.profile).toEqual({ name: 'Ada' })
    }
    expect((await request(app).get('/standard')).body.data).toEqual({
      id: 7,
      profile: { name: 'Ada' },
    })
  })

  it('answers 500 when an asynchronous response schema rejects the data: field named in development only', async () => {
    for (const debug of [true, false]) {
      const app = appWith(express, { debug })
      app.get(
        '/bad',
        ...handle({ response: asyncAccount }, (_q, res) =>
          res.ok({ data: { id: 'x', passwordHash: 'hunter2' } as never }),
        ),
      )
      app.use(errorHandler())
      const res = await request(app).get('/bad')
      expect([res.status, res.body.error.code, res.body.error.details]).toEqual([
        500,
        'INTERNAL_ERROR',
        null,
      ])
      expect(JSON.stringify(res.body)).not.toContain('hunter2')
      if (debug) {
        expect(res.body.error.message).toBe(
          "Response does not match the route's response schema (data.id failed the schema)",
        )
      } else expect(res.body.error.message).toBe('Something went wrong')
    }
  })

  it('answers 500 instead of data that fails its schema: field named in development only', async () => {
    for (const debug of [true, false]) {
      const app = appWith(express, { debug })
      app.get(
        '/bad',
        ...handle({ response: User }, async (_q, res) =>
          res.ok({ data: { ...secret, name: 42 } as never }),
        ),
      )
      app.use(errorHandler())
      const res = await request(app).get('/bad')
      expect(res.status).toBe(500)
      expect(res.body.error.code).toBe('INTERNAL_ERROR')
      expect(res.body.error.details).toBeNull()
      expect(JSON.stringify(res.body)).not.toContain('hunter2')
      if (debug) expect(res.body.error.message).toContain('data.name')
      else expect(res.body.error.message).toBe('Something went wrong')
    }
  })

  it('strips with a global response.shape whatever the mount order', async () => {
    for (const first of ['shapeguard', 'validate'] as const) {
      const app = express()
      const sg = shapeguard({ response: { shape: { ok: '{success}', result: '{data}' } } })
      const v = validate({ response: User })
      if (first === 'shapeguard') app.use(sg, v)
      else app.use(v, sg)
      app.get('/u', (_q, res) => res.ok({ data: secret }))
      const res = await request(app).get('/u')
      expect(res.body).toEqual({ ok: true, result: { id: 1, name: 'Ada', tags: [{ label: 'x' }] } })
    }
  })

  it('strips with withShape mounted after validate(), and before it too', async () => {
    const app = appWith(express)
    const shape = withShape({ name: '{data.name}', password: '{data.password}' })
    const v = validate({ response: User })
    app.get('/after', v, shape, (_q, res) => res.ok({ data: secret }))
    app.get('/before', shape, v, (_q, res) => res.ok({ data: secret }))
    for (const path of ['/after', '/before']) {
      const res = await request(app).get(path)
      expect(res.body).toEqual({ name: 'Ada' })
    }
  })

  it('never lets a field outside the response schema reach the client (property)', async () => {
    const app = appWith(express, { debug: false })
    let next: unknown
    app.get('/p', validate({ response: User }), (_q, res) => res.ok({ data: next }))
    app.use(errorHandler())
    await fc.assert(
      fc.asyncProperty(userOrAnything, async (value) => {
        next = value
        const res = await request(app).get('/p')
        if (res.status === 200) {
          expect(StrictUser.safeParse(res.body.data).success).toBe(true)
          expect(res.body.data).toEqual(JSON.parse(JSON.stringify(User.parse(value))))
        } else {
          expect(res.status).toBe(500)
          expect(User.safeParse(value).success).toBe(false)
          expect(res.body.error).toEqual({
            code: 'INTERNAL_ERROR',
            message: 'Something went wrong',
            details: null,
          })
        }
      }),
      { numRuns: 60 },
    )
  })

  it('never lets an undeclared field through a yup or valibot response schema (property)', async () => {
    const yupUser = y.object({
      id: y.number().required(),
      name: y.string().strict().required(),
      tags: y.array(y.object({ label: y.string().strict().required() })).required(),
      meta: y.object({ admin: y.boolean().strict().required() }).default(undefined),
    })
    const valibotUser = v.object({
      id: v.number(),
      name: v.string(),
      tags: v.array(v.object({ label: v.string() })),
      meta: v.optional(v.object({ admin: v.boolean() })),
    })
    const libraries = [
      {
        schema: yupAdapter(yupUser),
        own: (x: unknown) => yupUser.validateSync(x, { stripUnknown: true }),
      },
      { schema: valibotAdapter(valibotUser), own: (x: unknown) => v.parse(valibotUser, x) },
      { schema: valibotUser, own: (x: unknown) => v.parse(valibotUser, x) },
    ]
    const app = appWith(express, { debug: false })
    let next: unknown
    libraries.forEach(({ schema }, i) => {
      app.get(`/p${i}`, validate({ response: schema }), (_q, res) => res.ok({ data: next }))
    })
    app.use(errorHandler())
    await fc.assert(
      fc.asyncProperty(userOrAnything, fc.nat(libraries.length - 1), async (value, i) => {
        next = value
        const res = await request(app).get(`/p${i}`)
        let own: unknown
        try {
          own = libraries[i]!.own(value)
        } catch {
          expect(res.status).toBe(500)
          return
        }
        expect(res.status).toBe(200)
        expect(StrictUser.safeParse(res.body.data).success).toBe(true)
        expect(res.body.data).toEqual(JSON.parse(JSON.stringify(own)))
      }),
      { numRuns: 90 },
    )
  })
})

/** What a client, errorHandler's onError, the logger and stderr saw of one request. */
interface Late {
  status: number
  codes: string[]
  warnings: string[]
  /** The warnings with their fields, as JSON. */
  warned: string
  stderr: string[]
}

// A route that answers before its asynchronous response schema has stripped the data: the
// answer that went out stands, the data is dropped, and one warning (naming the route, never
// the data) replaces the stray ERR_HTTP_HEADERS_SENT that Express's final handler would print.
describe.each(hosts)(
  'an asynchronous response schema after the route answered, on %s',
  (_, express) => {
    // Slow enough that what the route did next (an error, a 404) has answered by then.
    const slowAccount = accountAfter(20)
    const data = { id: 7, passwordHash: 'hunter2' }
    const failing = { id: 'hunter2' }
    const late =
      'shapeguard: GET /late answered before its asynchronous response schema finished: the data was not sent; await the helper (await res.ok(…)) before anything else answers'

    // The app in 'development', where Express's final handler prints a stray error to stderr.
    function lateApp(capture: ReturnType<typeof captureLogger>, codes: string[]) {
      const app = express()
      app.set('env', 'development')
      app.use(shapeguard({ debug: true, logger: { instance: capture } }))
      return {
        app,
        end() {
          app.use(errorHandler({ onError: (e) => void codes.push(e.code) }))
        },
      }
    }

    async function run(mount: (app: ReturnType<Express>) => void, path = '/late'): Promise<Late> {
      const capture = captureLogger()
      const codes: string[] = []
      const stderr: string[] = []
      const write = process.stderr.write.bind(process.stderr)
      vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: unknown, ...rest: never[]) => {
        stderr.push(String(chunk))
        return write(chunk as string, ...rest)
      }) as never)
      vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
        stderr.push(args.map(String).join(' '))
      })
      try {
        return await withLogging(async () => {
          const { app, end } = lateApp(capture, codes)
          mount(app)
          end()
          const res = await request(app).get(path)
          await new Promise((resolve) => setTimeout(resolve, 50))
          const warnings = capture.records.filter(
            (r) => r.level === 'warn' && String(r.message).startsWith('shapeguard: GET /late'),
          )
          return {
            status: res.status,
            codes,
            warnings: warnings.map((r) => String(r.message)),
            warned: JSON.stringify(warnings),
            stderr,
          }
        })
      } finally {
        vi.restoreAllMocks()
      }
    }

    it('keeps the answer of a handler that throws after res.ok(), and sends nothing more', async () => {
      const got = await run((app) =>
        app.get(
          '/late',
          ...handle({ response: slowAccount }, (_q, res) => {
            res.ok({ data: data as never })
            throw new Error('after the answer')
          }),
        ),
      )
      expect(got.stderr).toEqual([])
      expect(got.status).toBe(500)
      expect(got.codes).toEqual(['INTERNAL_ERROR'])
      expect(got.warnings).toEqual([late])
      expect(got.warned).not.toContain('hunter2')
    })

    it('keeps the 404 of a route that called next() after res.ok()', async () => {
      const got = await run((app) =>
        app.get('/late', validate({ response: slowAccount }), (_q, res, next) => {
          res.ok({ data: data as never })
          next()
        }),
      )
      expect(got.stderr).toEqual([])
      expect(got.status).toBe(404)
      expect(got.codes).toEqual([])
      expect(got.warnings).toEqual([late])
    })

    it('sends no second error when the data fails the schema after the route answered', async () => {
      // The route as registered is named, never the values that filled its parameters, not
      // even in the path its router is mounted at.
      const got = await run((app) => {
        const router = express.Router()
        router.get('/:token', validate({ response: slowAccount }), (_q, res, next) => {
          res.ok({ data: failing as never })
          next()
        })
        app.use('/late/:tenant', router)
      }, '/late/hunter2/hunter2')
      expect(got.stderr).toEqual([])
      expect(got.status).toBe(404)
      expect(got.codes).toEqual([])
      expect(got.warnings).toEqual([late.replace('/late', '/late/:tenant/:token')])
      expect(got.warned).not.toContain('hunter2')
    })

    it('warns once per route, however often it answers first', async () => {
      const capture = captureLogger()
      await withLogging(async () => {
        const { app, end } = lateApp(capture, [])
        app.get('/late', validate({ response: slowAccount }), (_q, res, next) => {
          res.ok({ data: data as never })
          next()
        })
        end()
        for (let i = 0; i < 3; i++) await request(app).get('/late')
        await new Promise((resolve) => setTimeout(resolve, 50))
      })
      expect(capture.records.filter((r) => r.message === late)).toHaveLength(1)
    })

    it('lets a handler await res.ok(): sent, as with a synchronous schema, before it goes on', async () => {
      let sent: boolean[] = []
      const got = await run((app) =>
        app.get(
          '/late',
          ...handle({ response: slowAccount }, async (_q, res) => {
            const pending = res.ok({ data: data as never }) as unknown
            sent.push(res.headersSent)
            await pending
            sent.push(res.headersSent)
            throw new Error('after the answer')
          }),
        ),
      )
      expect(sent).toEqual([false, true])
      expect(got.stderr).toEqual([])
      expect(got.status).toBe(200)
      expect(got.warnings).toEqual([])
      // A failing schema: the awaited helper resolves, and the 500 goes out once, through next.
      sent = []
      const failed = await run((app) =>
        app.get(
          '/late',
          ...handle({ response: slowAccount }, async (_q, res) => {
            await res.ok({ data: failing as never })
            sent.push(res.headersSent)
          }),
        ),
      )
      expect(sent).toEqual([true])
      expect([failed.status, failed.codes, failed.warnings, failed.stderr]).toEqual([
        500,
        ['INTERNAL_ERROR'],
        [],
        [],
      ])
      expect(failed.warned).not.toContain('hunter2')
    })
  },
)
