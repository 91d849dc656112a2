import request from 'supertest'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  AppError,
  configureLogger,
  createRouter,
  errorHandler,
  handle,
  notFoundHandler,
  shapeguard,
} from '../../src/index.js'
import { logger } from '../../src/runtime/logging/logger.js'
import { captureLogger, type Express, hosts } from '../support/e2e.js'

// What was logged at warn: through the logger given to shapeguard(), or, without shapeguard()
// (whose mount sets the shared logger's methods anew), straight from the shared logger.
let warnings: string[] = []
let capture = captureLogger()

beforeEach(() => {
  configureLogger({ silent: false })
  warnings = []
  capture = captureLogger()
  vi.spyOn(logger, 'warn').mockImplementation(((message: unknown) => {
    warnings.push(String(message))
  }) as never)
})

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
  configureLogger({ silent: true })
})

/** shapeguard(), logging through the test's logger. */
function guard(debug: boolean) {
  return shapeguard({ debug, logger: { instance: capture } })
}

/** The order warnings logged so far. */
function orderWarnings(): string[] {
  const logged = capture.records.filter((r) => r.level === 'warn').map((r) => String(r.message))
  return [...warnings, ...logged].filter((m) =>
    /^shapeguard: (errorHandler|notFoundHandler)\(\) is mounted before/.test(m),
  )
}

const notFoundFirst =
  'shapeguard: notFoundHandler() is mounted before the route GET /users: it answers 404 before that route is reached; mount notFoundHandler() after your routes, before errorHandler()'
const errorFirst =
  'shapeguard: errorHandler() is mounted before the route GET /boom: errors from there never reach it and Express answers them with its own HTML page; mount errorHandler() last'

function users(app: ReturnType<Express>): void {
  app.get('/users', ...handle({}, (_req, res) => res.ok({ data: [] })))
}

function boom(app: ReturnType<Express>): void {
  app.get(
    '/boom',
    ...handle({}, () => {
      throw AppError.forbidden()
    }),
  )
}

describe.each(hosts)(
  'errorHandler() and notFoundHandler() mounted before the routes, on %s',
  (_, express) => {
    it('warns once when notFoundHandler() comes before a route (which then answers 404)', async () => {
      const app = express()
      app.use(guard(true))
      app.use(notFoundHandler())
      users(app)
      app.use(errorHandler())
      expect((await request(app).get('/users')).status).toBe(404)
      await request(app).get('/users')
      expect(orderWarnings()).toEqual([notFoundFirst])
    })

    it('warns once when errorHandler() comes before a route (whose errors then miss it)', async () => {
      const app = express()
      app.use(guard(true))
      app.use(errorHandler())
      boom(app)
      const res = await request(app).get('/boom')
      expect(res.status).toBe(403)
      expect(res.headers['content-type']).toMatch(/html/)
      await request(app).get('/boom')
      expect(orderWarnings()).toEqual([errorFirst])
    })

    it('warns when errorHandler() comes before notFoundHandler()', async () => {
      const app = express()
      app.use(guard(true))
      users(app)
      app.use(errorHandler())
      app.use(notFoundHandler())
      await request(app).get('/nowhere')
      expect(orderWarnings()).toEqual([
        'shapeguard: errorHandler() is mounted before notFoundHandler(): errors from there never reach it and Express answers them with its own HTML page; mount errorHandler() last',
      ])
    })

    it('finds a route of a router mounted after notFoundHandler(), and one inside a router', async () => {
      const app = express()
      app.use(guard(true))
      app.use(notFoundHandler())
      const v1 = createRouter()
      v1.post('/items/:id', (_req, res) => res.ok({ data: null }))
      app.use('/v1', v1)
      await request(app).get('/')
      const inner = express()
      inner.use(guard(true))
      const api = express.Router()
      api.use(notFoundHandler())
      api.get('/x', (_req, res) => res.ok({ data: null }))
      inner.use('/api', api)
      await request(inner).get('/api/x')
      expect(orderWarnings()).toEqual([
        'shapeguard: notFoundHandler() is mounted before the route POST /v1/items/:id: it answers 404 before that route is reached; mount notFoundHandler() after your routes, before errorHandler()',
        'shapeguard: notFoundHandler() is mounted before the route GET /api/x: it answers 404 before that route is reached; mount notFoundHandler() after your routes, before errorHandler()',
      ])
    })

    it('warns from notFoundHandler() itself when shapeguard() is not mounted', async () => {
      const app = express()
      app.use(notFoundHandler())
      users(app)
      app.use(errorHandler())
      await request(app).get('/users')
      await request(app).get('/users')
      expect(orderWarnings()).toEqual([notFoundFirst])
    })

    it('never warns when the order is right, nor for a handler mounted under a path', async () => {
      const app = express()
      app.use(guard(true))
      users(app)
      boom(app)
      const api = createRouter()
      api.get('/x', (_req, res) => res.ok({ data: null }))
      api.use(notFoundHandler())
      app.use('/api', api)
      app.use('/docs', notFoundHandler())
      app.get('/health', (_req, res) => res.ok({ data: 'up' }))
      app.use(notFoundHandler())
      app.use(errorHandler())
      expect((await request(app).get('/users')).status).toBe(200)
      expect((await request(app).get('/boom')).status).toBe(403)
      expect((await request(app).get('/health')).status).toBe(200)
      expect((await request(app).get('/nowhere')).status).toBe(404)
      expect(orderWarnings()).toEqual([])
    })

    it('never warns in production', async () => {
      const app = express()
      app.use(guard(false))
      app.use(notFoundHandler())
      app.use(errorHandler())
      users(app)
      await request(app).get('/users')
      vi.stubEnv('NODE_ENV', 'production')
      const bare = express()
      bare.use(notFoundHandler())
      users(bare)
      bare.use(errorHandler())
      await request(bare).get('/users')
      expect(orderWarnings()).toEqual([])
    })
  },
)
