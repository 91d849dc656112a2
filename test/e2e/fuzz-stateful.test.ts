import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import {
  AppError,
  configureLogger,
  errorHandler,
  generateOpenAPI,
  handle,
  shapeguard,
} from '../../src/index.js'
import {
  type FuzzError,
  type FuzzReport,
  fuzzRoutes,
  jsonReport,
  readJsonReport,
} from '../../src/testing/index.js'
import { type Express, hosts } from '../support/e2e.js'

// The stateful phase against real apps with in-memory stores: a correct CRUD app passes, and each
// planted defect is found by the default number of sequences, shrunk to its shortest sequence.

beforeAll(() => configureLogger({ silent: true }))
afterAll(() => configureLogger({ silent: true }))

type Defect =
  | 'readable-after-delete'
  | 'unreadable-create'
  | 'failed-create-stores'
  | 'update-breaks-schema'

const User = z.object({
  id: z.string(),
  name: z.string().min(1).max(40),
  age: z.number().int().min(0).max(120),
})
const NewUser = User.omit({ id: true })
type User = z.infer<typeof User>
const params = z.object({ id: z.string().max(20) })

function usersApp(
  express: Express,
  o: { defect?: Defect; list?: boolean; refuseCreates?: boolean } = {},
) {
  const { defect, list = true, refuseCreates = false } = o
  const Minor = AppError.define('MINOR', 409, 'Too young to sign up')
  const store = new Map<string, User>()
  let next = 1
  const app = express()
  app.use(shapeguard())
  app.use(express.json())
  app.post(
    '/users',
    ...handle({ body: NewUser, response: User, errors: [Minor] }, (req, res) => {
      const user = { id: String(next++), ...req.body }
      if (defect === 'failed-create-stores') store.set(user.id, user)
      // A business rule after validation: some valid creates fail.
      if (user.age < 18 || refuseCreates) throw Minor(null)
      store.set(defect === 'unreadable-create' ? `u${user.id}` : user.id, user)
      res.created({ data: user })
    }),
  )
  if (list)
    app.get(
      '/users',
      ...handle({ response: z.array(User) }, (_req, res) => res.ok({ data: [...store.values()] })),
    )
  app.get(
    '/users/:id',
    ...handle({ params, response: User, errors: ['NOT_FOUND'] }, (req, res) => {
      const user = store.get(req.params.id)
      if (user === undefined) throw AppError.notFound('User')
      res.ok({ data: user })
    }),
  )
  app.patch(
    '/users/:id',
    ...handle(
      { params, body: NewUser.partial(), response: User, errors: ['NOT_FOUND'] },
      (req, res) => {
        const user = store.get(req.params.id)
        if (user === undefined) throw AppError.notFound('User')
        const updated = { ...user, ...req.body } as User
        store.set(user.id, updated)
        // The planted defect sends the age as text: the response schema says a number.
        const sent =
          defect === 'update-breaks-schema' ? { ...updated, age: `${updated.age}` } : updated
        res.ok({ data: sent as User })
      },
    ),
  )
  app.delete(
    '/users/:id',
    ...handle({ params, response: User, errors: ['NOT_FOUND'] }, (req, res) => {
      const user = store.get(req.params.id)
      if (user === undefined) throw AppError.notFound('User')
      if (defect !== 'readable-after-delete') store.delete(user.id)
      res.ok({ data: user })
    }),
  )
  app.use(errorHandler())
  return app
}

// Things whose create answers no id but a Location header (`/things/t-1`); the defect: a delete
// that leaves the thing readable.
function thingsApp(express: Express, defect: boolean) {
  const store = new Map<string, string>()
  let next = 1
  const app = express()
  app.use(shapeguard())
  app.use(express.json())
  const Thing = z.object({ name: z.string().min(1).max(10) })
  app.post(
    '/things',
    ...handle({ body: Thing, response: Thing }, (req, res) => {
      const id = `t-${next++}`
      store.set(id, req.body.name)
      res.location(`/things/${id}`).created({ data: req.body })
    }),
  )
  const thingParams = z.object({ thingId: z.string() })
  const one = { params: thingParams, response: Thing, errors: ['NOT_FOUND' as const] }
  app.get(
    '/things/:thingId',
    ...handle(one, (req, res) => {
      const name = store.get(req.params.thingId)
      if (name === undefined) throw AppError.notFound('Thing')
      res.ok({ data: { name } })
    }),
  )
  app.delete(
    '/things/:thingId',
    ...handle(one, (req, res) => {
      const name = store.get(req.params.thingId)
      if (name === undefined) throw AppError.notFound('Thing')
      if (!defect) store.delete(req.params.thingId)
      res.ok({ data: { name } })
    }),
  )
  app.use(errorHandler())
  return app
}

const stateful = { phases: ['stateful'] as const, seed: 5 }

async function failureOf(run: Promise<unknown>): Promise<FuzzError> {
  const error = (await run.then(
    () => undefined,
    (e: unknown) => e,
  )) as FuzzError | undefined
  if (error === undefined) throw new Error('the run passed')
  return error
}

describe.each(hosts)('the stateful phase on %s', (_, express) => {
  it('passes a correct CRUD app, reporting the resource and its links', async () => {
    const report = await fuzzRoutes(usersApp(express), { ...stateful, record: true })
    expect(report.failures).toEqual([])
    const route = report.routes.find((r) => r.route === 'stateful')
    expect(route).toEqual({
      route: 'stateful',
      requests: expect.any(Number),
      phases: { stateful: route!.requests },
      notes: [
        '/users: POST /users creates, the id from the field id of its answer, else its Location header; GET /users lists; it feeds GET /users/:id (read), PATCH /users/:id (update), DELETE /users/:id (delete)',
      ],
    })
    expect(route!.requests).toBeGreaterThan(50)
    // Uses of created users answered 200, and uses after a delete 404.
    const statuses = (key: string) =>
      new Set(report.exchanges!.filter((e) => e.route === key).map((e) => e.answer?.status))
    const items = ['GET', 'PATCH', 'DELETE'].flatMap((m) => [...statuses(`${m} /users/:id`)])
    expect(new Set(items)).toEqual(new Set([200, 404]))
    expect(statuses('POST /users')).toEqual(new Set([201, 409, 422]))
    expect(report.exchanges!.every((e) => e.phase === 'stateful')).toBe(true)
  }, 60_000)

  it('finds a delete that leaves the resource readable (use_after_free), shrunk to create, delete, read', async () => {
    const error = await failureOf(
      fuzzRoutes(usersApp(express, { defect: 'readable-after-delete', list: false }), stateful),
    )
    const [failure] = error.report.failures
    expect(error.report.failures).toHaveLength(1)
    expect(failure!.phase).toBe('stateful')
    expect(failure!.invariant).toMatch(
      /^use_after_free: (GET|PATCH|DELETE) \/users\/:id answered 200 after DELETE \/users\/:id answered 200$/,
    )
    const steps = failure!.sequence!.map((r) => `${r.method} ${r.url.replace(/\d+/, 'N')}`)
    // The create, the delete and the use; before the create, a read of the id after the last
    // one created (a failed create must not make it readable) when an earlier sequence made one.
    const [probe, ...rest] = steps.length === 4 ? steps : [undefined, ...steps]
    expect(probe === undefined || probe === 'GET /users/N').toBe(true)
    expect(rest.slice(0, 2)).toEqual(['POST /users', 'DELETE /users/N'])
    // The ids are filled in: the delete and the use name the user the create made.
    const ids = failure!.sequence!.slice(-2).map((r) => r.url.split('/')[2])
    expect(ids[0]).toBe(ids[1])
    expect(failure!.request).toBe(failure!.sequence!.at(-1))
    expect(failure!.curl.split('\n')).toHaveLength(steps.length)
  }, 60_000)

  it('finds a create whose resource cannot be read back', async () => {
    const error = await failureOf(
      fuzzRoutes(usersApp(express, { defect: 'unreadable-create' }), stateful),
    )
    const [failure] = error.report.failures
    expect(failure!.invariant).toMatch(
      /^resource_unavailable: (GET|PATCH|DELETE) \/users\/:id answered 404 after POST \/users answered 201$/,
    )
    // GET /users before the create, the create, then the route that missed it.
    expect(failure!.sequence).toHaveLength(3)
  }, 60_000)

  it('finds a failed create that still stores, by the list growing', async () => {
    const error = await failureOf(
      fuzzRoutes(usersApp(express, { defect: 'failed-create-stores' }), stateful),
    )
    const [failure] = error.report.failures
    expect(failure!.invariant).toBe(
      'failed_create_stored: GET /users lists a new resource after POST /users answered 409',
    )
    expect(failure!.sequence!.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /users',
      'POST /users',
      'GET /users',
    ])
  }, 60_000)

  it('finds a failed create that still stores without a list route: the next id is readable', async () => {
    const error = await failureOf(
      fuzzRoutes(usersApp(express, { defect: 'failed-create-stores', list: false }), stateful),
    )
    expect(error.report.failures[0]!.invariant).toBe(
      'failed_create_stored: the id after the last one created reads after POST /users answered 409, and did not before it',
    )
  }, 60_000)

  it('finds an update whose answer breaks the response schema', async () => {
    const error = await failureOf(
      fuzzRoutes(usersApp(express, { defect: 'update-breaks-schema' }), stateful),
    )
    const [failure] = error.report.failures
    expect(failure!.route).toBe('PATCH /users/:id')
    // shapeguard refuses to send data its response schema rejects: the answer is a 500.
    expect(failure!.invariant).toBe(
      'answered 500: a request must never get a 5xx (in the sequence GET /users → POST /users → PATCH /users/:id)',
    )
  }, 60_000)

  it('follows a Location header when the answer has no id', async () => {
    for (const defect of [false, true]) {
      const run = fuzzRoutes(thingsApp(express, defect), { ...stateful, record: true })
      if (defect) {
        const error = await failureOf(run)
        expect(error.report.failures[0]!.invariant).toMatch(/^use_after_free: /)
        continue
      }
      const report = await run
      expect(report.routes.at(-1)!.notes[0]).toBe(
        '/things: POST /things creates, the id from its Location header; it feeds GET /things/:thingId (read), DELETE /things/:thingId (delete)',
      )
      const read = report.exchanges!.filter(
        (e) => e.route === 'GET /things/:thingId' && e.answer?.status === 200,
      )
      expect(read.length).toBeGreaterThan(0)
      expect(read.every((e) => /^\/things\/t-\d+$/.test(e.request.url))).toBe(true)
    }
  }, 60_000)

  it("follows the links a route declares, to another collection's route", async () => {
    for (const defect of [false, true]) {
      const profiles = new Map<string, string>()
      let next = 1
      const app = express()
      app.use(shapeguard())
      app.use(express.json())
      const Account = z.object({ key: z.string(), owner: z.string().min(1).max(10) })
      app.post(
        '/accounts',
        ...handle(
          {
            body: Account.omit({ key: true }),
            response: Account,
            links: {
              profile: {
                operationId: 'getProfile',
                parameters: { accountKey: '$response.body#/data/key' },
              },
            },
          },
          (req, res) => {
            const key = `k${next++}`
            if (!defect) profiles.set(key, req.body.owner)
            res.created({ data: { key, owner: req.body.owner } })
          },
        ),
      )
      app.get(
        '/profiles/:accountKey',
        ...handle(
          {
            operationId: 'getProfile',
            params: z.object({ accountKey: z.string() }),
            response: z.object({ owner: z.string() }),
            errors: ['NOT_FOUND'],
          },
          (req, res) => {
            const owner = profiles.get(req.params.accountKey)
            if (owner === undefined) throw AppError.notFound('Profile')
            res.ok({ data: { owner } })
          },
        ),
      )
      app.use(errorHandler())
      const doc = generateOpenAPI({ title: 't', version: '1', app })
      expect((doc.paths['/accounts'] as any).post.responses['201'].links).toEqual({
        profile: {
          operationId: 'getProfile',
          parameters: { accountKey: '$response.body#/data/key' },
        },
      })
      const run = fuzzRoutes(app, { ...stateful, record: true })
      if (defect) {
        const error = await failureOf(run)
        expect(error.report.failures[0]!.invariant).toBe(
          'resource_unavailable: GET /profiles/:accountKey answered 404 after POST /accounts answered 201',
        )
        continue
      }
      const report = await run
      expect(report.routes.at(-1)!.notes[0]).toBe(
        'POST /accounts: POST /accounts creates, the id from the OpenAPI link profile ($response.body#/data/key); it feeds GET /profiles/:accountKey (read)',
      )
      expect(
        report.exchanges!.some(
          (e) => e.route === 'GET /profiles/:accountKey' && e.answer?.status === 200,
        ),
      ).toBe(true)
    }
  }, 60_000)

  it('skips gracefully, with a note, an app without linkable routes', async () => {
    const app = express()
    app.use(shapeguard())
    app.get(
      '/items/:id',
      ...handle({ params, errors: ['NOT_FOUND'] }, () => {
        throw AppError.notFound('Item')
      }),
    )
    app.post(
      '/events',
      ...handle({ body: z.object({ n: z.number() }) }, (_req, res) => res.created({ data: null })),
    )
    app.use(errorHandler())
    const report = await fuzzRoutes(app, stateful)
    expect(report.failures).toEqual([])
    expect(report.routes.map((r) => r.route)).toEqual(['GET /items/:id', 'POST /events'])
    expect(report.skipped).toContain(
      'stateful: no resource to sequence, no create (a POST, or a PUT to a collection) feeds GET /items/:id, and the document declares no links',
    )
  }, 60_000)
})

// A stateful failure saved in a JSON report and replayed: its commands run again on a new app,
// the ids the replayed creates get filled in; it fails while the defect is there, passes once fixed.
const failuresOf = (run: Promise<FuzzReport>) =>
  run.then(
    (r) => r.failures,
    (e: FuzzError) => e.report.failures,
  )

describe.each(hosts)('replaying a stateful failure on %s', (_, express) => {
  const planted: [string, Defect, boolean][] = [
    ['a delete that leaves the resource readable', 'readable-after-delete', false],
    ['a created resource that cannot be read', 'unreadable-create', true],
    ['a failed create stored, by the list', 'failed-create-stores', true],
    ['a failed create stored, by the next id', 'failed-create-stores', false],
  ]
  it.each(planted)(
    '%s: fails while broken, passes once fixed',
    async (_, defect, list) => {
      const error = await failureOf(fuzzRoutes(usersApp(express, { defect, list }), stateful))
      const [found] = error.report.failures
      const { failures } = readJsonReport(jsonReport(error.report))
      expect(failures).toEqual([{ ...found, curl: expect.any(String) }])
      const invariant = found!.invariant
      const replay = await fuzzRoutes(usersApp(express, { defect, list }), {
        replay: failures,
        record: true,
      }).then(
        () => undefined,
        (e: FuzzError) => e.report,
      )
      const again = replay!.failures
      expect(again.map((f) => [f.phase, f.invariant])).toEqual([['stateful', invariant]])
      // The ids are this app's: each use names an id a create of the replay answered (or, the
      // check of a failed create without a list, the one after it).
      const answered = replay!.exchanges!.filter(
        (e) => e.route === 'POST /users' && e.answer?.status === 201,
      )
      const ids = new Set(answered.map((e) => JSON.parse(e.answer!.text).data.id as string))
      const used = again[0]!.sequence!.filter((r) => r.url.startsWith('/users/'))
      for (const r of used) {
        const id = r.url.split('/')[2]!
        expect(ids.has(id) || ids.has(String(Number(id) - 1))).toBe(true)
      }
      const fixed = await fuzzRoutes(usersApp(express, { list }), { replay: failures })
      expect(fixed.failures).toEqual([])
      expect(fixed.routes).toEqual([
        {
          route: found!.route,
          requests: expect.any(Number),
          notes: [],
          phases: { stateful: fixed.routes[0]!.requests },
        },
      ])
      expect(fixed.routes[0]!.requests).toBeGreaterThan(1)
    },
    60_000,
  )

  it('takes the id from the replayed create’s Location header', async () => {
    const error = await failureOf(fuzzRoutes(thingsApp(express, true), stateful))
    const { failures } = readJsonReport(jsonReport(error.report))
    const again = await failuresOf(fuzzRoutes(thingsApp(express, true), { replay: failures }))
    expect(again.map((f) => f.invariant)).toEqual([error.report.failures[0]!.invariant])
    const urls = again[0]!.sequence!.map((r) => `${r.method} ${r.url}`)
    expect(urls.slice(0, 2)).toEqual(['POST /things', 'DELETE /things/t-1'])
    expect(urls.at(-1)).toMatch(/^(GET|DELETE) \/things\/t-1$/)
    expect(await failuresOf(fuzzRoutes(thingsApp(express, false), { replay: failures }))).toEqual(
      [],
    )
  }, 60_000)

  it('never calls fixed a stateful failure it cannot run again', async () => {
    const error = await failureOf(
      fuzzRoutes(usersApp(express, { defect: 'readable-after-delete', list: false }), stateful),
    )
    const [found] = error.report.failures
    const { stateful: _steps, ...older } = found!
    const fixed = usersApp(express, { list: false })
    const without = await failuresOf(fuzzRoutes(fixed, { replay: [older] }))
    expect(without.map((f) => f.invariant)).toEqual([
      `not replayed: a stateful failure without its commands; run the stateful phase with seed 5 again (${found!.invariant})`,
    ])
    const elsewhere = { ...found!, stateful: { ...found!.stateful!, resource: '/accounts' } }
    const gone = await failuresOf(fuzzRoutes(fixed, { replay: [elsewhere] }))
    expect(gone.map((f) => f.invariant)).toEqual([
      `not replayed: the app has no resource /accounts to sequence now (${found!.invariant})`,
    ])
    // Its creates refused now (a store that holds the earlier run's data), the steps after them
    // have nothing to act on: the delete's defect was never tried.
    const refusing = usersApp(express, { defect: 'readable-after-delete', refuseCreates: true })
    const untried = await failuresOf(fuzzRoutes(refusing, { replay: [found!] }))
    expect(untried.map((f) => f.invariant)).toEqual([
      expect.stringMatching(
        /^not replayed: step \d+, (GET|PATCH|DELETE) \/users\/:id, had no resource to act on \(/,
      ),
    ])
  }, 60_000)
})
