import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  AppError,
  type AuthConfig,
  configureLogger,
  errorHandler,
  handle,
  type ShapeguardConfig,
  shapeguard,
  validate,
} from '../../../src/index.js'
import { authStep } from '../../../src/runtime/auth/auth-step.js'
import { resolveConfig } from '../../../src/runtime/middleware/resolve-config.js'
import { captureLogger, type Express, hosts, withLogging } from '../../support/e2e.js'

beforeAll(() => {
  configureLogger({ silent: true })
})

const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`

/** Verifiers that count their calls and admit one credential each. */
function verifiers() {
  const calls = { bearer: 0, basic: 0, apiKey: 0, query: 0, cookie: 0, session: 0 }
  const auth = {
    bearer: (token: string) => {
      calls.bearer++
      return token === 'good-token' ? { user: 'ada' } : undefined
    },
    basic: (user: string, password: string) => {
      calls.basic++
      return user === 'ada' && password === 'p:a:ss' ? { user } : null
    },
    apiKey: {
      in: 'header',
      name: 'X-Api-Key',
      verify: (key: string) => {
        calls.apiKey++
        return key === 'good-key' ? { client: 'header' } : false
      },
    },
    query: {
      in: 'query',
      name: 'api_key',
      verify: (key: string) => {
        calls.query++
        return key === 'good-key' ? { client: 'query' } : undefined
      },
    },
    cookie: {
      in: 'cookie',
      name: 'key',
      verify: (key: string) => {
        calls.cookie++
        return key === 'good-key' ? { client: 'cookie' } : undefined
      },
    },
    session: {
      type: 'custom',
      document: { type: 'apiKey', in: 'header', name: 'x-session' },
      challenge: 'Session realm="app"',
      verify: (req) => {
        calls.session++
        return req.headers['x-session'] === 'ok' ? { session: 'ok' } : undefined
      },
    },
  } satisfies AuthConfig
  return { calls, auth }
}

function securedApp(
  express: Express,
  security: readonly (string | readonly string[])[] | undefined,
  config: Partial<ShapeguardConfig> & { auth?: AuthConfig } = {},
) {
  const app = express()
  app.use(shapeguard({ debug: true, ...config }))
  app.get(
    '/me',
    ...handle({ ...(security === undefined ? {} : { security }) } as never, (req, res) =>
      res.ok({ data: { auth: (req as { auth?: unknown }).auth ?? 'none' } }),
    ),
  )
  app.use(errorHandler())
  return app
}

const unauthorized = {
  success: false,
  message: 'Authentication required',
  error: { code: 'UNAUTHORIZED', message: 'Authentication required', details: null },
}

describe.each(hosts)('%s: a route secured by one scheme', (_, express) => {
  it('bearer: admits a good token as req.auth, refuses a wrong one with error="invalid_token"', async () => {
    const { calls, auth } = verifiers()
    const app = securedApp(express, ['bearer'], { auth })
    const ok = await request(app).get('/me').set('Authorization', 'Bearer good-token')
    expect(ok.status).toBe(200)
    expect(ok.body.data).toEqual({ auth: { user: 'ada' } })
    const wrong = await request(app).get('/me').set('Authorization', 'Bearer bad-token')
    expect(wrong.status).toBe(401)
    expect(wrong.body).toEqual(unauthorized)
    expect(wrong.headers['www-authenticate']).toBe('Bearer realm="api", error="invalid_token"')
    expect(calls.bearer).toBe(2)
    const none = await request(app).get('/me')
    expect(none.status).toBe(401)
    expect(none.headers['www-authenticate']).toBe('Bearer realm="api"')
    expect(calls.bearer).toBe(2)
  })

  it('bearer: the realm of a scheme object is its challenge', async () => {
    const app = securedApp(express, ['jwt'], {
      auth: { jwt: { type: 'bearer', realm: 'todos', verify: () => undefined } },
    })
    const res = await request(app).get('/me')
    expect(res.headers['www-authenticate']).toBe('Bearer realm="todos"')
  })

  it('basic: admits user and a password holding ":", refuses others', async () => {
    const { calls, auth } = verifiers()
    const app = securedApp(express, ['basic'], { auth })
    const ok = await request(app).get('/me').set('Authorization', basic('ada:p:a:ss'))
    expect(ok.body.data).toEqual({ auth: { user: 'ada' } })
    const wrong = await request(app).get('/me').set('Authorization', basic('ada:nope'))
    expect(wrong.status).toBe(401)
    expect(wrong.headers['www-authenticate']).toBe('Basic realm="api", charset="UTF-8"')
    // A bearer token is no basic credential: missing, no verifier runs.
    const other = await request(app).get('/me').set('Authorization', 'Bearer good-token')
    expect(other.status).toBe(401)
    expect(calls.basic).toBe(2)
  })

  it.each([
    ['apiKey', (r: request.Test) => r.set('x-api-key', 'good-key'), 'header', 'X-Api-Key'],
    ['query', (r: request.Test) => r.query({ api_key: 'good-key' }), 'query', 'api_key'],
    ['cookie', (r: request.Test) => r.set('Cookie', 'a=1; key=good-key'), 'cookie', 'key'],
  ] as const)(
    'apiKey (%s): admitted from its place, refused or missing',
    async (name, send, place, key) => {
      const { calls, auth } = verifiers()
      const app = securedApp(express, [name], { auth })
      const ok = await send(request(app).get('/me'))
      expect(ok.status).toBe(200)
      expect(ok.body.data).toEqual({ auth: { client: place } })
      const none = await request(app).get('/me')
      expect(none.status).toBe(401)
      expect(none.headers['www-authenticate']).toBe(
        `ApiKey realm="api", in="${place}", name="${key}"`,
      )
      expect(calls[name]).toBe(1)
      const wrong = await request(app)
        .get(`/me?api_key=bad`)
        .set('x-api-key', 'bad')
        .set('Cookie', 'key=bad')
      expect(wrong.status).toBe(401)
      expect(calls[name]).toBe(2)
    },
  )

  it('custom: the verifier gets the request; its challenge is sent', async () => {
    const { calls, auth } = verifiers()
    const app = securedApp(express, ['session'], { auth })
    expect((await request(app).get('/me').set('x-session', 'ok')).body.data).toEqual({
      auth: { session: 'ok' },
    })
    const refused = await request(app).get('/me')
    expect(refused.status).toBe(401)
    expect(refused.headers['www-authenticate']).toBe('Session realm="app"')
    expect(calls.session).toBe(2)
  })

  it('sends WWW-Authenticate with problem+json too', async () => {
    const { auth } = verifiers()
    const app = securedApp(express, ['bearer', 'basic'], {
      auth,
      errors: { format: 'problem+json' },
    })
    const res = await request(app).get('/me')
    expect(res.status).toBe(401)
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8')
    expect(res.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' })
    expect(res.headers['www-authenticate']).toBe(
      'Bearer realm="api", Basic realm="api", charset="UTF-8"',
    )
  })
})

describe.each(hosts)('%s: alternatives and combinations', (_, express) => {
  it('tries alternatives in order: the first that admits wins, missing ones are skipped', async () => {
    const { calls, auth } = verifiers()
    const app = securedApp(express, ['bearer', 'apiKey'], { auth })
    const key = await request(app).get('/me').set('x-api-key', 'good-key')
    expect(key.body.data).toEqual({ auth: { client: 'header' } })
    expect(calls).toMatchObject({ bearer: 0, apiKey: 1 })
    const both = await request(app)
      .get('/me')
      .set('Authorization', 'Bearer good-token')
      .set('x-api-key', 'good-key')
    expect(both.body.data).toEqual({ auth: { user: 'ada' } })
    expect(calls).toMatchObject({ bearer: 1, apiKey: 1 })
    const wrongToken = await request(app)
      .get('/me')
      .set('Authorization', 'Bearer bad')
      .set('x-api-key', 'good-key')
    expect(wrongToken.body.data).toEqual({ auth: { client: 'header' } })
    const none = await request(app).get('/me')
    expect(none.status).toBe(401)
    expect(none.headers['www-authenticate']).toBe(
      'Bearer realm="api", ApiKey realm="api", in="header", name="X-Api-Key"',
    )
    expect(calls).toMatchObject({ bearer: 2, apiKey: 2 })
  })

  it('a combination admits when every scheme does: req.auth by scheme name', async () => {
    const { calls, auth } = verifiers()
    const app = securedApp(express, [['apiKey', 'session']], { auth })
    const ok = await request(app).get('/me').set('x-api-key', 'good-key').set('x-session', 'ok')
    expect(ok.body.data).toEqual({
      auth: { apiKey: { client: 'header' }, session: { session: 'ok' } },
    })
    const half = await request(app).get('/me').set('x-session', 'ok')
    expect(half.status).toBe(401)
    // Without every credential, no verifier of the combination runs.
    expect(calls).toMatchObject({ apiKey: 1, session: 1 })
    const refused = await request(app)
      .get('/me')
      .set('x-api-key', 'good-key')
      .set('x-session', 'no')
    expect(refused.status).toBe(401)
    expect(refused.headers['www-authenticate']).toBe(
      'ApiKey realm="api", in="header", name="X-Api-Key", Session realm="app"',
    )
  })

  it('a combination of async verifiers admits, and refuses on the one that refuses', async () => {
    const app = securedApp(express, [['bearer', 'key']], {
      auth: {
        bearer: async (token) => (token === 't' ? 'user' : undefined),
        key: {
          in: 'header',
          name: 'x-key',
          verify: async (key) => (key === 'k' ? 'client' : null),
        },
      },
    })
    const ok = await request(app).get('/me').set('Authorization', 'Bearer t').set('x-key', 'k')
    expect(ok.body.data).toEqual({ auth: { bearer: 'user', key: 'client' } })
    const no = await request(app).get('/me').set('Authorization', 'Bearer t').set('x-key', 'x')
    expect(no.status).toBe(401)
  })
})

describe.each(hosts)('%s: what verifiers answer', (_, express) => {
  it('a verifier throwing AppError.forbidden() answers 403, without WWW-Authenticate', async () => {
    const app = securedApp(express, ['bearer'], {
      auth: {
        bearer: () => {
          throw AppError.forbidden('Suspended')
        },
      },
    })
    const res = await request(app).get('/me').set('Authorization', 'Bearer x')
    expect(res.status).toBe(403)
    expect(res.body.error).toEqual({ code: 'FORBIDDEN', message: 'Suspended', details: null })
    expect(res.headers['www-authenticate']).toBeUndefined()
  })

  it('the first AppError is raised only when no later alternative admits', async () => {
    const auth = {
      bearer: async () => {
        throw AppError.forbidden()
      },
      key: {
        in: 'header',
        name: 'x-key',
        verify: (key: string) => (key === 'k' ? 'client' : null),
      },
    } satisfies AuthConfig
    const app = securedApp(express, ['bearer', 'key'], { auth })
    const admitted = await request(app)
      .get('/me')
      .set('Authorization', 'Bearer x')
      .set('x-key', 'k')
    expect(admitted.body.data).toEqual({ auth: 'client' })
    const refused = await request(app)
      .get('/me')
      .set('Authorization', 'Bearer x')
      .set('x-key', 'no')
    expect(refused.status).toBe(403)
  })

  it('a verifier throwing AppError.unauthorized() answers 401 with the challenge', async () => {
    const app = securedApp(express, ['bearer'], {
      auth: {
        bearer: () => Promise.reject(AppError.unauthorized('Token expired')),
      },
    })
    const res = await request(app).get('/me').set('Authorization', 'Bearer x')
    expect(res.status).toBe(401)
    expect(res.body.message).toBe('Token expired')
    expect(res.headers['www-authenticate']).toBe('Bearer realm="api", error="invalid_token"')
  })

  it.each([
    ['resolves a principal', async (): Promise<unknown> => ({ id: 1 }), 200],
    ['resolves undefined', async (): Promise<unknown> => undefined, 401],
    ['resolves false', async (): Promise<unknown> => false, 401],
    ['resolves null', async (): Promise<unknown> => null, 401],
  ] as const)('an async verifier that %s', async (_name, verify, status) => {
    const app = securedApp(express, ['bearer'], { auth: { bearer: verify } })
    const res = await request(app).get('/me').set('Authorization', 'Bearer x')
    expect(res.status).toBe(status)
  })

  it.each([
    [
      'throws',
      () => {
        throw new Error('db password=hunter2 at 10.0.0.1')
      },
    ],
    [
      'rejects',
      async () => {
        throw new Error('db password=hunter2 at 10.0.0.1')
      },
    ],
  ] as const)(
    'a verifier that %s a plain Error: 500, logged, its message hidden in production',
    (_name, verify) =>
      withLogging(async () => {
        const logger = captureLogger()
        const key = { in: 'header', name: 'x-key', verify: () => 'never reached' } as const
        const app = securedApp(express, ['bearer', 'key'], {
          debug: false,
          logger: { instance: logger },
          auth: { bearer: verify, key },
        })
        const res = await request(app)
          .get('/me')
          .set('Authorization', 'Bearer secret-token-value')
          .set('x-key', 'k')
        expect(res.status).toBe(500)
        expect(res.body.error).toEqual({
          code: 'INTERNAL_ERROR',
          message: 'Something went wrong',
          details: null,
        })
        expect(res.text).not.toContain('hunter2')
        const errors = logger.records.filter((r) => r.level === 'error')
        expect(errors).toHaveLength(1)
        expect(JSON.stringify(logger.records)).not.toContain('secret-token-value')
      }),
  )
})

describe.each(hosts)('%s: defaultSecurity, public routes, order', (_, express) => {
  it('a route without security takes the default; security: [] stays public', async () => {
    const { calls, auth } = verifiers()
    const app = express()
    app.use(shapeguard({ auth, defaultSecurity: ['bearer'] }))
    app.get('/secured', ...handle({}, (req, res) => res.ok({ data: req.auth ?? null })))
    app.get(
      '/public',
      ...handle({ security: [] }, (req, res) => res.ok({ data: req.auth ?? 'none' })),
    )
    app.use(errorHandler())
    expect((await request(app).get('/secured')).status).toBe(401)
    const ok = await request(app).get('/secured').set('Authorization', 'Bearer good-token')
    expect(ok.body.data).toEqual({ user: 'ada' })
    const open = await request(app).get('/public').set('Authorization', 'Bearer good-token')
    expect(open.body.data).toBe('none')
    expect(calls.bearer).toBe(1)
  })

  it('a validate() mounted with app.use applies its own security only, never the default', async () => {
    const { calls, auth } = verifiers()
    const app = express()
    app.use(shapeguard({ auth, defaultSecurity: ['bearer'] }))
    app.use('/api', validate({ rateLimit: { windowMs: 60_000, max: 100 } }))
    app.post('/api/login', ...handle({ security: [] }, (_req, res) => res.ok({ data: 'in' })))
    app.get('/api/me', ...handle({}, (req, res) => res.ok({ data: req.auth ?? null })))
    app.use('/keyed', validate({ security: ['apiKey'] }))
    app.get('/keyed/x', (_req, res) => res.ok({ data: 'x' }))
    app.use(errorHandler())
    expect((await request(app).post('/api/login')).status).toBe(201)
    expect((await request(app).get('/api/me')).status).toBe(401)
    const me = await request(app).get('/api/me').set('Authorization', 'Bearer good-token')
    expect([me.status, me.body.data]).toEqual([200, { user: 'ada' }])
    // One verifier call per request: the mounted validate() did not check the default too.
    expect(calls.bearer).toBe(1)
    expect((await request(app).get('/keyed/x')).status).toBe(401)
    expect((await request(app).get('/keyed/x').set('X-Api-Key', 'good-key')).status).toBe(200)
  })

  it('does not run the handler when the app answered while a verifier was waiting', async () => {
    let ran = false
    const app = express()
    app.use(shapeguard({ auth: { bearer: () => new Promise((r) => setTimeout(() => r({}), 40)) } }))
    // A timeout of the app's own, shorter than the verifier.
    app.use((_req, res, next) => {
      setTimeout(() => res.headersSent || res.status(503).json({ late: true }), 10)
      next()
    })
    app.get(
      '/slow',
      ...handle({ security: ['bearer'] }, (_req, res) => {
        ran = true
        res.ok({ data: null })
      }),
    )
    app.use(errorHandler())
    const answer = await request(app).get('/slow').set('Authorization', 'Bearer t')
    expect(answer.status).toBe(503)
    await new Promise((r) => setTimeout(r, 60))
    expect(ran).toBe(false)
  })

  it('a falsy verdict refuses: 0 and the empty string too', async () => {
    for (const verdict of [0, '', Number.NaN, false, null, undefined]) {
      const app = express()
      app.use(shapeguard({ auth: { bearer: () => verdict as never } }))
      app.get('/me', ...handle({ security: ['bearer'] }, (_req, res) => res.ok({ data: 'in' })))
      app.use(errorHandler())
      const answer = await request(app).get('/me').set('Authorization', 'Bearer t')
      expect(answer.status, String(verdict)).toBe(401)
    }
  })

  it('a rate-limited route answers 429 before any verifier runs', async () => {
    const { calls, auth } = verifiers()
    const app = express()
    app.use(shapeguard({ auth }))
    app.get(
      '/me',
      ...handle({ security: ['bearer'], rateLimit: { windowMs: 60_000, max: 2 } }, (_req, res) =>
        res.ok({ data: null }),
      ),
    )
    app.use(errorHandler())
    const statuses: number[] = []
    for (let i = 0; i < 5; i++)
      statuses.push((await request(app).get('/me').set('Authorization', 'Bearer bad')).status)
    expect(statuses).toEqual([401, 401, 429, 429, 429])
    expect(calls.bearer).toBe(2)
  })

  it('answers 401 before the body schema, and runs no verifier without credentials', async () => {
    const { calls, auth } = verifiers()
    const app = express()
    app.use(shapeguard({ auth }))
    app.use(express.json())
    app.post(
      '/items',
      ...handle({ security: ['bearer'], body: z.object({ name: z.string() }) }, (req, res) =>
        res.created({ data: req.body }),
      ),
    )
    app.use(errorHandler())
    const none = await request(app).post('/items').send({ name: 42 })
    expect(none.status).toBe(401)
    expect(calls.bearer).toBe(0)
    const invalid = await request(app)
      .post('/items')
      .set('Authorization', 'Bearer good-token')
      .send({ name: 42 })
    expect(invalid.status).toBe(422)
  })

  it('fails closed on a scheme name the app does not declare: 500, the handler never runs', async () => {
    const { auth } = verifiers()
    let reached = false
    const app = express()
    app.use(shapeguard({ auth, debug: false }))
    app.get(
      '/admin',
      ...handle({ security: ['admin'] }, (_req, res) => {
        reached = true
        res.ok({ data: null })
      }),
    )
    app.use(errorHandler())
    for (let i = 0; i < 2; i++) {
      const res = await request(app).get('/admin').set('Authorization', 'Bearer good-token')
      expect(res.status).toBe(500)
    }
    expect(reached).toBe(false)
  })

  it('a route of one app admits with each app’s own schemes', async () => {
    const route = { security: ['bearer'] } as const
    const make = (token: string) => {
      const app = express()
      app.use(shapeguard({ auth: { bearer: (t) => (t === token ? token : undefined) } }))
      app.get('/me', ...handle(route, (req, res) => res.ok({ data: req.auth })))
      app.use(errorHandler())
      return app
    }
    const one = make('one')
    const two = make('two')
    expect((await request(one).get('/me').set('Authorization', 'Bearer one')).body.data).toBe('one')
    expect((await request(two).get('/me').set('Authorization', 'Bearer one')).status).toBe(401)
    expect((await request(two).get('/me').set('Authorization', 'Bearer two')).body.data).toBe('two')
  })
})

describe('authStep', () => {
  const req = (authorization?: string) =>
    ({ headers: authorization ? { authorization } : {}, rawHeaders: [] }) as never
  const res = { headersSent: false, setHeader() {} } as never

  it('answers a sync verifier synchronously: no promise on the bearer path', () => {
    const config = resolveConfig({ auth: { bearer: (t: string) => (t === 'x' ? 'p' : undefined) } })
    const step = authStep(['bearer'])
    const r = req('Bearer x')
    expect(step(r, res, config)).toBeUndefined()
    expect((r as { auth?: unknown }).auth).toBe('p')
  })

  it('costs a route with no security and no default nothing: it returns at once', () => {
    const config = resolveConfig({})
    expect(authStep(undefined)(req(), res, config)).toBeUndefined()
  })
})
