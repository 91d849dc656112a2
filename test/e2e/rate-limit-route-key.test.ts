import type { Request, Response } from 'express'
import Redis from 'ioredis'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { redisStore } from '../../src/adapters-redis.js'
import {
  configureLogger,
  createRouter,
  defineRoute,
  errorHandler,
  handle,
  type RateLimitEntry,
  type RateLimitOptions,
  shapeguard,
  validate,
} from '../../src/index.js'
import { type Express, hosts } from '../support/e2e.js'
import {
  type RedisServer,
  redisAvailable,
  redisSkipReason,
  startRedis,
} from '../support/redis-server.js'

// The default key is the route as registered and the client, so every
// spelling Express routes to one route shares its count.

beforeAll(() => {
  configureLogger({ silent: true })
})

type App = ReturnType<Express>
type Method = 'get' | 'post' | 'put' | 'delete' | 'head'

/** A get/set store that keeps what it is given, to read the keys back. */
function keptStore() {
  const map = new Map<string, RateLimitEntry>()
  return {
    map,
    get: (key: string) => map.get(key) ?? null,
    set: (key: string, entry: RateLimitEntry) => {
      map.set(key, { ...entry })
    },
  }
}

const limit = (extra: Partial<RateLimitOptions> = {}): RateLimitOptions => ({
  windowMs: 60_000,
  max: 3,
  ...extra,
})

const ok = (_req: Request, res: Response) => res.status(200).json({ ok: true })

function appOf(express: Express, build: (app: App) => void, trustProxy?: unknown): App {
  const app = express()
  if (trustProxy !== undefined) app.set('trust proxy', trustProxy)
  app.use(shapeguard())
  build(app)
  app.use(errorHandler())
  return app
}

/** The statuses of requests made one after another, each `[method, path, client?]`. */
async function statuses(app: App, calls: readonly (readonly [Method, string, string?])[]) {
  const out: number[] = []
  for (const [method, path, client] of calls) {
    const req = request(app)[method](path)
    if (client !== undefined) req.set('X-Forwarded-For', client)
    out.push((await req).status)
  }
  return out
}

const each = (method: Method, paths: readonly string[]) =>
  paths.map((path) => [method, path] as const)

/** Three passes, then 429 for every further spelling. */
const threeThen429 = (n: number, pass = 200) => [
  pass,
  pass,
  pass,
  ...Array.from({ length: n - 3 }, () => 429),
]

describe.each(hosts)('%s: the default key is the route as registered', (_name, express) => {
  it('counts every spelling of a static route as one: case, trailing slash', async () => {
    const app = appOf(express, (a) => a.post('/login', ...handle({ rateLimit: limit() }, ok)))
    const paths = ['/login', '/LOGIN', '/Login', '/login/', '/LOGIN/', '/lOgIn', '/Login/']
    expect(await statuses(app, each('post', paths))).toEqual(threeThen429(paths.length))
  })

  it('counts every parameter value as one, and what the param guard strips', async () => {
    const store = keptStore()
    const app = appOf(express, (a) =>
      a.get('/users/:id', ...handle({ rateLimit: limit({ store }) }, ok)),
    )
    const paths = [
      '/users/1',
      '/users/2',
      '/users/%31',
      '/users/1%E2%80%8B',
      '/users/1%00',
      '/USERS/1/',
      '/users/999',
      '/users/%E2%80%8B1%E2%80%8B',
    ]
    expect(await statuses(app, each('get', paths))).toEqual(threeThen429(paths.length))
    // Nothing of the path the client sent is in the key.
    expect([...store.map.keys()]).toEqual(['GET /users/:id|127.0.0.1'])
  })

  it('reads the mount path as registered, not req.baseUrl, through nested routers', async () => {
    const store = keptStore()
    const app = appOf(express, (a) => {
      const inner = express.Router({ mergeParams: true })
      inner.post('/login', ...handle({ rateLimit: limit({ store }) }, ok))
      const outer = express.Router()
      outer.use('/Admin', inner)
      a.use('/v1', outer)
    })
    const paths = [
      '/v1/admin/login',
      '/V1/admin/login',
      '/v1/ADMIN/login',
      '/V1/Admin/Login/',
      '/v1/admin/LOGIN',
    ]
    expect(await statuses(app, each('post', paths))).toEqual(threeThen429(paths.length))
    expect([...store.map.keys()]).toEqual(['POST /v1/Admin/login|127.0.0.1'])
  })

  it('counts the values of mount path parameters as one', async () => {
    const store = keptStore()
    const app = appOf(express, (a) => {
      const users = express.Router({ mergeParams: true })
      users.get('/users/:id', validate(defineRoute({ rateLimit: limit({ store }) })), ok)
      a.use('/orgs/:org', users)
    })
    const paths = [
      '/orgs/a/users/1',
      '/orgs/b/users/2',
      '/ORGS/c/USERS/3',
      '/orgs/%61/users/1/',
      '/orgs/a%00/users/1',
    ]
    expect(await statuses(app, each('get', paths))).toEqual(threeThen429(paths.length))
    expect([...store.map.keys()]).toEqual(['GET /orgs/:org/users/:id|127.0.0.1'])
  })

  it("reads createRouter()'s routes, dispatched through its table", async () => {
    const store = keptStore()
    const app = appOf(express, (a) => {
      const items = createRouter({ Router: express.Router as never })
      items.put('/items/:id', ...handle({ rateLimit: limit({ store }) }, ok))
      const api = express.Router()
      api.use('/v2', items)
      a.use('/api', api)
    })
    const paths = ['/api/v2/items/1', '/API/V2/items/2', '/api/v2/ITEMS/3/', '/Api/v2/items/%34']
    expect(await statuses(app, each('put', paths))).toEqual(threeThen429(paths.length))
    expect([...store.map.keys()]).toEqual(['PUT /api/v2/items/:id|127.0.0.1'])
  })

  it('counts a router mounted at two paths as one route, under the first path', async () => {
    const store = keptStore()
    const app = appOf(express, (a) => {
      const auth = express.Router()
      auth.post('/login', ...handle({ rateLimit: limit({ store }) }, ok))
      a.use('/v1', auth)
      a.use('/latest', auth)
    })
    const paths = ['/v1/login', '/latest/login', '/LATEST/login', '/V1/login', '/latest/Login/']
    expect(await statuses(app, each('post', paths))).toEqual(threeThen429(paths.length))
    expect([...store.map.keys()]).toEqual(['POST /v1/login|127.0.0.1'])
  })

  it('reads the mount path of a sub-application', async () => {
    const store = keptStore()
    const app = appOf(express, (a) => {
      const sub = express()
      sub.get('/files/:name', ...handle({ rateLimit: limit({ store }) }, ok))
      a.use('/Sub', sub)
    })
    const paths = ['/sub/files/a', '/SUB/files/b', '/Sub/FILES/c/', '/sub/files/d']
    expect(await statuses(app, each('get', paths))).toEqual(threeThen429(paths.length))
    expect([...store.map.keys()]).toEqual(['GET /Sub/files/:name|127.0.0.1'])
  })

  it('keeps two routes apart, and two clients apart', async () => {
    const app = appOf(
      express,
      (a) => {
        a.post('/login', ...handle({ rateLimit: limit() }, ok))
        a.get('/users/:id', ...handle({ rateLimit: limit() }, ok))
      },
      'loopback',
    )
    const a = '192.0.2.1'
    const b = '192.0.2.2'
    expect(
      await statuses(app, [
        ['post', '/login', a],
        ['post', '/LOGIN', a],
        ['post', '/login/', a],
        ['post', '/Login', a],
        // The same client on another route, another client on the same route: their own counts.
        ['get', '/users/1', a],
        ['post', '/login', b],
        ['post', '/LOGIN/', b],
      ]),
    ).toEqual([200, 200, 200, 429, 200, 200, 200])
  })

  it('keys by the methods the route holds the limit for: HEAD as GET, all() as ALL', async () => {
    const store = keptStore()
    const both = validate({ rateLimit: limit({ store }) })
    const app = appOf(express, (a) => {
      a.get('/items/:id', ...handle({ rateLimit: limit({ store }) }, ok))
      a.all('/any', ...handle({ rateLimit: limit({ store }) }, ok))
      a.route('/every').all(validate({ rateLimit: limit({ store }) }), ok)
      a.route('/both').get(both, ok).post(both, ok)
      a.route('/things')
        .get(...handle({ rateLimit: limit({ store }) }, ok))
        .delete(...handle({ rateLimit: limit({ store }) }, ok))
    })
    const head = [
      ['get', '/items/1'],
      ['head', '/ITEMS/2'],
      ['get', '/items/3'],
      ['head', '/items/4'],
    ] as const
    expect(await statuses(app, head)).toEqual([200, 200, 200, 429])
    for (const path of ['/any', '/every']) {
      const methods = [
        ['get', path],
        ['post', path.toUpperCase()],
        ['put', `${path}/`],
        ['delete', path],
      ] as const
      expect(await statuses(app, methods), path).toEqual([200, 200, 200, 429])
    }
    const shared = [
      ['get', '/both'],
      ['post', '/both'],
      ['head', '/both'],
      ['post', '/BOTH'],
    ] as const
    expect(await statuses(app, shared)).toEqual([200, 200, 200, 429])
    // Two limits of one path, each for its own method: two counts.
    expect(await statuses(app, each('get', ['/things', '/things', '/things']))).toEqual(
      threeThen429(3),
    )
    expect(await statuses(app, [['delete', '/things']])).toEqual([200])
    expect([...store.map.keys()].sort()).toEqual([
      'ALL /any|127.0.0.1',
      'ALL /every|127.0.0.1',
      'DELETE /things|127.0.0.1',
      'GET /items/:id|127.0.0.1',
      'GET /things|127.0.0.1',
      'GET,POST /both|127.0.0.1',
    ])
  })

  it('lets keyGenerator replace the key, after the route', async () => {
    const store = keptStore()
    const byApiKey = (req: Request) => req.get('x-api-key') ?? 'anonymous'
    const byPath = (req: Request) => req.path
    const app = appOf(
      express,
      (a) => {
        const auth = express.Router()
        auth.post('/login', ...handle({ rateLimit: limit({ store, keyGenerator: byApiKey }) }, ok))
        a.use('/v1', auth)
        a.get('/raw/:id', ...handle({ rateLimit: limit({ keyGenerator: byPath, max: 1 }) }, ok))
      },
      'loopback',
    )
    const as = (key: string, client: string, path: string) =>
      request(app).post(path).set('X-Api-Key', key).set('X-Forwarded-For', client)
    const answers = []
    // One API key from several clients and spellings is one count; another key is another.
    for (const [key, client, path] of [
      ['k1', '192.0.2.1', '/v1/login'],
      ['k1', '192.0.2.2', '/V1/LOGIN'],
      ['k1', '192.0.2.3', '/v1/login/'],
      ['k1', '192.0.2.4', '/V1/login'],
      ['k2', '192.0.2.1', '/v1/login'],
    ] as const)
      answers.push((await as(key, client, path)).status)
    expect(answers).toEqual([200, 200, 200, 429, 200])
    expect([...store.map.keys()].sort()).toEqual(['POST /v1/login|k1', 'POST /v1/login|k2'])
    // A keyGenerator that reads the path counts what it reads: nothing is added but the route.
    expect(await statuses(app, each('get', ['/raw/1', '/raw/1', '/raw/2', '/RAW/1']))).toEqual([
      200, 429, 200, 200,
    ])
  })
})

/** The statuses of requests made one after another, each `[method, path]`, any method. */
async function anyMethod(app: App, calls: readonly (readonly [string, string])[]) {
  const out: number[] = []
  for (const [method, path] of calls) {
    const res = await (request(app) as unknown as Record<string, (p: string) => request.Test>)[
      method
    ]!(path)
    out.push(res.status)
  }
  return out
}

// Every method Express hands to a use() middleware.
const useMethods = ['get', 'post', 'put', 'patch', 'delete', 'propfind', 'mkcol', 'lock', 'search']

describe.each(hosts)('%s: a limit given to use()', (_name, express) => {
  it('counts every path and every method as one, keyed by the mount path', async () => {
    const store = keptStore()
    const app = appOf(express, (a) => {
      a.use('/files', validate({ rateLimit: limit({ store }) }), ok)
    })
    const calls = useMethods.map(
      (method, i) => [method, ['/files/a', '/files/b/c', '/FILES'][i % 3]!] as const,
    )
    expect(await anyMethod(app, calls)).toEqual(threeThen429(calls.length))
    expect([...store.map.keys()]).toEqual(['* /files|127.0.0.1'])
  })

  it('keeps two limits on one store apart', async () => {
    const store = keptStore()
    const app = appOf(express, (a) => {
      a.use('/login', validate({ rateLimit: limit({ store, max: 2 }) }), ok)
      a.use('/admin', validate({ rateLimit: limit({ store, max: 2 }) }), ok)
    })
    expect(
      await anyMethod(app, [
        ['get', '/login'],
        ['get', '/login'],
        ['get', '/admin'],
        ['put', '/admin'],
        ['post', '/login'],
        ['delete', '/admin'],
      ]),
    ).toEqual([200, 200, 200, 200, 429, 429])
    expect([...store.map.keys()].sort()).toEqual(['* /admin|127.0.0.1', '* /login|127.0.0.1'])
  })

  it('keeps two limits at one mount path apart: each counts a request once', async () => {
    const store = keptStore()
    const app = appOf(express, (a) => {
      a.use(validate({ rateLimit: limit({ store }) }))
      a.use(validate({ rateLimit: limit({ store, max: 5 }) }), ok)
    })
    expect(await statuses(app, each('get', ['/a', '/b', '/c', '/d']))).toEqual(threeThen429(4))
    expect([...store.map.keys()].sort()).toEqual(['* /#2|127.0.0.1', '* /|127.0.0.1'])
    expect([...store.map.values()].map((e) => e.count)).toEqual([3, 3])
  })

  it('counts every spelling of the mount path as one: case, parameters, percent-encoding', async () => {
    const store = keptStore()
    const app = appOf(express, (a) => {
      const api = express.Router({ mergeParams: true })
      api.use(validate({ rateLimit: limit({ store }) }), ok)
      a.use('/V1/Orgs/:org', api)
    })
    const paths = ['/v1/orgs/a', '/V1/ORGS/b/c', '/v1/Orgs/%61%20b/', '/v1/orgs/x%00', '/v1/orgs/a']
    expect(await statuses(app, each('get', paths))).toEqual(threeThen429(paths.length))
    expect([...store.map.keys()]).toEqual(['* /V1/Orgs/:org|127.0.0.1'])
  })

  it('is one count after a route that called next(), whose req.route Express keeps', async () => {
    const store = keptStore()
    const app = appOf(express, (a) => {
      a.get('/seen', (_req, _res, next) => next())
      a.use(validate({ rateLimit: limit({ store }) }), ok)
    })
    const paths = ['/seen', '/other', '/seen', '/SEEN', '/other']
    expect(await statuses(app, each('get', paths))).toEqual(threeThen429(paths.length))
    expect([...store.map.keys()]).toEqual(['* /|127.0.0.1'])
  })

  it('counts a limit found in no layer (called by another middleware) by its own id', async () => {
    const store = keptStore()
    const limited = validate({ rateLimit: limit({ store }) })
    const app = appOf(express, (a) => {
      a.use('/wrapped', (req, res, next) => limited(req, res, next), ok)
    })
    const paths = ['/wrapped/a', '/WRAPPED/b', '/wrapped/%63', '/wrapped/d']
    expect(await statuses(app, each('get', paths))).toEqual(threeThen429(paths.length))
    const keys = [...store.map.keys()]
    expect(keys).toHaveLength(1)
    expect(keys[0]).toMatch(/^\* #\d+\|127\.0\.0\.1$/)
  })
})

describe.each(hosts)('%s: a limit with body validation', (_name, express) => {
  it('counts a 422 and a 201 of two spellings as one', async () => {
    const Body = z.object({ name: z.string().min(1) })
    const app = appOf(express, (a) => {
      a.use(express.json())
      a.post(
        '/users',
        ...handle({ body: Body, rateLimit: limit({ max: 2 }) }, (req, res) =>
          res.created({ data: req.body }),
        ),
      )
    })
    const post = (path: string, body: unknown) =>
      request(app)
        .post(path)
        .send(body as object)
    expect((await post('/users', { name: '' })).status).toBe(422)
    expect((await post('/USERS/', { name: 'a' })).status).toBe(201)
    expect((await post('/Users', { name: 'a' })).status).toBe(429)
  })
})

const withRedis = redisAvailable()

describe.skipIf(!withRedis)(`with redisStore ${withRedis ? '' : redisSkipReason}`, () => {
  let redis: RedisServer | undefined
  let client: Redis | undefined
  beforeAll(async () => {
    redis = await startRedis()
    client = new Redis({ host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: 1 })
    client.on('error', () => {})
  }, 20_000)
  afterAll(async () => {
    client?.disconnect()
    await redis?.stop()
  })

  it.each(hosts)(
    '%s: two use() limits on one Redis keep apart, every method one count',
    async (host, express) => {
      const prefix = `use:${host}:`
      const store = redisStore({ client: client!, prefix })
      const app = appOf(express, (a) => {
        a.use('/Login', validate({ rateLimit: limit({ store, max: 2 }) }), ok)
        a.use('/admin', validate({ rateLimit: limit({ store, max: 2 }) }), ok)
      })
      expect(
        await anyMethod(app, [
          ['get', '/login'],
          ['propfind', '/LOGIN/'],
          ['get', '/admin'],
          ['post', '/login'],
          ['mkcol', '/Login'],
          ['put', '/admin/x'],
          ['delete', '/admin'],
        ]),
      ).toEqual([200, 200, 200, 429, 429, 200, 429])
      expect((await client!.keys(`${prefix}*`)).sort()).toEqual([
        `${prefix}* /Login|127.0.0.1`,
        `${prefix}* /admin|127.0.0.1`,
      ])
    },
  )
})
