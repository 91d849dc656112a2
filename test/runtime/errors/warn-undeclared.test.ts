import request from 'supertest'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import {
  AppError,
  configureLogger,
  errorHandler,
  handle,
  type ShapeguardConfig,
  shapeguard,
  validate,
} from '../../../src/index.js'
import { captureLogger, type Express, hosts } from '../../support/e2e.js'
import { misuse } from '../../support/misuse.js'

// In development, an AppError a guarded route's handler raises with a code the route does not
// declare is logged once per route and code, naming the route and the code only.

let capture = captureLogger()
beforeEach(() => {
  configureLogger({ silent: false })
  capture = captureLogger()
})
afterEach(() => {
  configureLogger({ silent: true })
})

const warned = () =>
  capture.records
    .filter((r) => r.level === 'warn' && r.message?.includes('does not declare'))
    .map(({ meta, message }) => ({ meta, message }))

const warning = (method: string, endpoint: string, code: string) => ({
  meta: expect.objectContaining({ method, endpoint, code }),
  message: `shapeguard: ${method} ${endpoint} raised ${code}, which its route does not declare: add it to the route's errors (a registry code or an AppError.define() factory) so that the document, the typed client and the fuzzer know it`,
})

const OutOfStock = AppError.define('OUT_OF_STOCK', 409, 'Out of stock', {
  details: z.object({ sku: z.string() }),
})
const Teapot = AppError.define('TEAPOT', 418, 'I am a teapot')

function app(express: Express, config: ShapeguardConfig = { debug: true }) {
  const app = express()
  app.use(shapeguard({ ...config, logger: { instance: capture } }))
  app.use(express.json())
  const id = z.object({ id: z.string() })
  // Raises what ?raise names: a declared factory, a declared registry code, or undeclared ones.
  const raise = (what: unknown) => {
    if (what === 'stock') throw OutOfStock({ sku: 'secret-sku' }, 'secret message')
    if (what === 'missing') throw AppError.notFound('secret resource')
    if (what === 'conflict') throw AppError.conflict('secret')
    if (what === 'teapot') throw Teapot(null)
    if (what === 'bad-request') throw AppError.custom('BAD_REQUEST', 'secret', 400)
    if (what === 'plain') throw new Error('secret')
  }
  const query = z.object({ raise: z.string().optional() })
  app.get(
    '/items/:id',
    ...handle({ params: id, query, errors: [OutOfStock, 'NOT_FOUND'] }, (req) => {
      raise(req.query.raise)
      throw AppError.forbidden()
    }),
  )
  app.post('/orders', validate({ query }), (req) => raise(req.query.raise))
  app.get('/plain', (req) => raise(req.query.raise))
  app.use(errorHandler())
  return app
}

describe.each(hosts)('the undeclared error warning on %s', (_, express) => {
  it('says nothing of declared errors: its errors, and what shapeguard sends for the route', async () => {
    const server = app(express)
    for (const raise of ['stock', 'missing', 'bad-request', 'plain'])
      await request(server).get(`/items/1?raise=${raise}`)
    // A POST documents 413 and 415: PAYLOAD_TOO_LARGE is shapeguard's own for it.
    await request(server).post('/orders?raise=bad-request')
    expect(warned()).toEqual([])
  })

  it('warns once per route and code, naming the route as registered and the code only', async () => {
    const server = app(express)
    for (const path of [
      '/items/1?raise=conflict',
      '/items/2?raise=conflict',
      '/items/3?raise=teapot',
    ])
      await request(server).get(path)
    await request(server).post('/orders?raise=conflict')
    await request(server).post('/orders?raise=conflict')
    expect(warned()).toEqual([
      warning('GET', '/items/:id', 'CONFLICT'),
      warning('GET', '/items/:id', 'TEAPOT'),
      warning('POST', '/orders', 'CONFLICT'),
    ])
    expect(
      JSON.stringify(
        capture.records.filter((r) => r.level === 'warn' && r.message?.includes('declare')),
      ),
    ).not.toContain('secret')
  })

  it('counts 401 and 403 as declared only on a secured route', async () => {
    const server = app(express)
    // No security, no default: FORBIDDEN is the handler's own, undeclared.
    await request(server).get('/items/1')
    expect(warned()).toEqual([warning('GET', '/items/:id', 'FORBIDDEN')])
    // Secured by the app's default security: 401 and 403 are shapeguard's own answers there.
    // (Until the auth step enforces, the request reaches the handler without credentials.)
    capture.records.length = 0
    const secured = app(express, {
      debug: true,
      auth: { bearer: (token: string) => (token === 'good' ? { id: 1 } : undefined) },
      defaultSecurity: ['bearer'],
    })
    await request(secured).get('/items/1').set('authorization', 'Bearer good')
    expect(warned()).toEqual([])
  })

  it('counts 503 HANDLER_TIMEOUT as declared only with a timeout, OVERLOADED only with overload', async () => {
    const store = { increment: () => ({ count: 1, reset: Date.now() + 60_000 }) }
    const lifecycleApp = (config: ShapeguardConfig) => {
      const server = express()
      server.use(shapeguard({ debug: true, ...config, logger: { instance: capture } }))
      const query = z.object({ code: z.string() })
      const raise = (req: { query: { code: string } }) => {
        throw AppError.custom(req.query.code, 'secret', 503)
      }
      server.get('/timed', ...handle({ query, timeout: 60_000 }, raise))
      server.get('/plain', ...handle({ query }, raise))
      server.get(
        '/closed',
        ...handle(
          { query, rateLimit: { windowMs: 60_000, max: 100, store, failOpen: false } },
          raise,
        ),
      )
      server.use(errorHandler())
      return server
    }
    const server = lifecycleApp({})
    await request(server).get('/timed?code=HANDLER_TIMEOUT')
    await request(server).get('/timed?code=OVERLOADED')
    await request(server).get('/plain?code=HANDLER_TIMEOUT')
    // The rate limit failing closed declares its own 503 code, not the others of the status.
    await request(server).get('/closed?code=RATE_LIMIT_UNAVAILABLE')
    await request(server).get('/closed?code=HANDLER_TIMEOUT')
    expect(warned()).toEqual([
      warning('GET', '/timed', 'OVERLOADED'),
      warning('GET', '/plain', 'HANDLER_TIMEOUT'),
      warning('GET', '/closed', 'HANDLER_TIMEOUT'),
    ])
    capture.records.length = 0
    const app2 = lifecycleApp({ timeout: 60_000, overload: { maxHeapUsedBytes: 2 ** 50 } })
    for (const path of ['/plain', '/timed', '/closed'])
      for (const code of ['HANDLER_TIMEOUT', 'OVERLOADED'])
        await request(app2).get(`${path}?code=${code}`)
    expect(warned()).toEqual([])
  })

  it('says nothing outside a guarded route, nor in production', async () => {
    await request(app(express)).get('/plain?raise=teapot')
    const production = app(express, { debug: false })
    await request(production).get('/items/1?raise=teapot')
    expect(warned()).toEqual([])
  })
})

describe("a route's errors", () => {
  it('are checked when the route is defined, naming the entry at fault', () => {
    expect(() => handle({ errors: ['NOT_FUOND' as never] }, () => {})).toThrow(
      misuse(
        'SG_ERR_UNKNOWN_NAME',
        'shapeguard: handle(): errors[0]: "NOT_FUOND" is not a code of the registry, declare a code of your own with AppError.define()',
      ),
    )
    expect(() => validate({ errors: ['NOT_FOUND', 409 as never] })).toThrow(
      misuse(
        'SG_ERR_INVALID_OPTION',
        "shapeguard: validate(): errors[1]: must be a registry code ('NOT_FOUND') or a factory made by AppError.define()",
      ),
    )
    expect(() => validate({ errors: 'NOT_FOUND' as never })).toThrow(
      misuse('SG_ERR_INVALID_OPTION', 'shapeguard: validate(): errors must be an array'),
    )
  })
})
