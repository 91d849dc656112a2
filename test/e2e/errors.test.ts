import request from 'supertest'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  AppError,
  asyncHandler,
  configureLogger,
  type ErrorHandlerOptions,
  errorHandler,
  logger,
  notFoundHandler,
  type ShapeguardConfig,
  shapeguard,
} from '../../src/index.js'
import { contextOf, type RequestLogSlot } from '../../src/runtime/core/context.js'
import { captureLogger, type Express, hosts, withLogging } from '../support/e2e.js'

// The request logger would write every request to stdout; errors are checked through the
// loggers each test passes, which errorHandler writes to directly when no request logger watches.
beforeAll(() => {
  configureLogger({ silent: true })
})

class PaymentError extends AppError<{ orderId: string }> {
  constructor(orderId: string) {
    super('PAYMENT_FAILED', 'Payment failed', 402, { orderId })
  }
}

/** An app that throws `thrown` from GET /throw (synchronously) and /async (as a rejection). */
function throwingApp(
  express: Express,
  thrown: () => unknown,
  options: ErrorHandlerOptions = {},
  config: ShapeguardConfig = {},
) {
  const app = express()
  app.use(express.json({ limit: '1kb' }))
  app.use(shapeguard(config))
  app.get('/throw', () => {
    throw thrown()
  })
  app.get(
    '/async',
    asyncHandler(async () => {
      throw thrown()
    }),
  )
  app.post('/echo', (req, res) => res.ok({ data: req.body }))
  app.use(notFoundHandler())
  app.use(errorHandler({ logger: captureLogger(), ...options }))
  return app
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe.each(hosts)('AppError through errorHandler on %s', (_, express) => {
  it.each([
    ['notFound()', () => AppError.notFound('User'), 404, 'NOT_FOUND', 'User not found'],
    ['notFound', () => AppError.notFound(), 404, 'NOT_FOUND', 'Resource not found'],
    ['unauthorized', () => AppError.unauthorized(), 401, 'UNAUTHORIZED', 'Authentication required'],
    ['forbidden', () => AppError.forbidden('Admins only'), 403, 'FORBIDDEN', 'Admins only'],
    ['conflict', () => AppError.conflict('Email'), 409, 'CONFLICT', 'Email already exists'],
    ['internal', () => AppError.internal('Queue down'), 500, 'INTERNAL_ERROR', 'Queue down'],
    [
      'custom',
      () => AppError.custom('TEAPOT', 'I am a teapot', 418),
      418,
      'TEAPOT',
      'I am a teapot',
    ],
    [
      'fromLegacy',
      () => AppError.fromLegacy({ code: 'OLD', message: 'Old style', statusCode: 410 }),
      410,
      'OLD',
      'Old style',
    ],
  ])(
    '%s keeps its status, code and message, also in production',
    async (_n, make, status, code, message) => {
      const app = throwingApp(express, make, { debug: false })
      for (const path of ['/throw', '/async']) {
        const res = await request(app).get(path)
        expect(res.status).toBe(status)
        expect(res.body).toEqual({
          success: false,
          message,
          error: { code, message, details: null },
        })
      }
    },
  )

  it('validation sends one issue as an object and several as an array, also in production', async () => {
    const one = throwingApp(
      express,
      () => AppError.validation([{ field: 'email', message: 'Invalid email' }]),
      { debug: false },
    )
    const many = throwingApp(
      express,
      () =>
        AppError.validation([
          { field: 'email', message: 'Invalid email' },
          { field: 'age', message: 'Too small' },
        ]),
      { debug: false },
    )
    const a = await request(one).get('/throw')
    expect(a.status).toBe(422)
    expect(a.body.error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Validation failed',
      details: { field: 'email', message: 'Invalid email' },
    })
    expect((await request(many).get('/throw')).body.error.details).toHaveLength(2)
  })

  it('a define()d factory and a subclass are AppErrors with their details', async () => {
    const OutOfStock = AppError.define<{ sku: string }>('OUT_OF_STOCK', 409, 'Out of stock')
    const defined = throwingApp(express, () => OutOfStock({ sku: 'A1' }), { debug: false })
    const sub = throwingApp(express, () => new PaymentError('o-1'), { debug: false })
    expect((await request(defined).get('/throw')).body.error).toEqual({
      code: 'OUT_OF_STOCK',
      message: 'Out of stock',
      details: { sku: 'A1' },
    })
    const res = await request(sub).get('/async')
    expect(res.status).toBe(402)
    expect(res.body.error).toEqual({
      code: 'PAYMENT_FAILED',
      message: 'Payment failed',
      details: { orderId: 'o-1' },
    })
  })
})

describe.each(hosts)('programmer errors on %s', (_, express) => {
  const boom = () => new Error('db password is hunter2')

  it('production hides the message and details behind the fallback message', async () => {
    const app = throwingApp(express, boom, { debug: false })
    for (const path of ['/throw', '/async']) {
      const res = await request(app).get(path)
      expect(res.status).toBe(500)
      expect(res.body).toEqual({
        success: false,
        message: 'Something went wrong',
        error: { code: 'INTERNAL_ERROR', message: 'Something went wrong', details: null },
      })
      expect(res.text).not.toContain('hunter2')
    }
  })

  it('development sends the real message and the stack string', async () => {
    const app = throwingApp(express, boom, { debug: true })
    const res = await request(app).get('/throw')
    expect(res.status).toBe(500)
    expect(res.body.message).toBe('db password is hunter2')
    expect(res.body.error.code).toBe('INTERNAL_ERROR')
    expect(res.body.error.details).toMatch(/^Error: db password is hunter2\n\s+at /)
  })

  it('debug defaults from NODE_ENV read when errorHandler is mounted, not at import', async () => {
    vi.stubEnv('NODE_ENV', 'production')
    const prod = throwingApp(express, boom)
    vi.stubEnv('NODE_ENV', 'development')
    const dev = throwingApp(express, boom)
    vi.stubEnv('NODE_ENV', 'production')
    expect((await request(prod).get('/throw')).body.message).toBe('Something went wrong')
    expect((await request(dev).get('/throw')).body.message).toBe('db password is hunter2')
  })

  it("follows shapeguard()'s debug and errors.fallbackMessage; its own options win", async () => {
    const fromConfig = throwingApp(
      express,
      boom,
      {},
      {
        debug: false,
        errors: { fallbackMessage: 'Try again later' },
      },
    )
    const own = throwingApp(
      express,
      boom,
      { fallbackMessage: 'Oops' },
      {
        debug: false,
        errors: { fallbackMessage: 'Try again later' },
      },
    )
    const ownDebug = throwingApp(express, boom, { debug: true }, { debug: false })
    expect((await request(fromConfig).get('/throw')).body.message).toBe('Try again later')
    expect((await request(own).get('/throw')).body.message).toBe('Oops')
    expect((await request(ownDebug).get('/throw')).body.message).toBe('db password is hunter2')
  })

  it.each([
    ['null', () => null, 'Non-error value thrown: null'],
    ['undefined', () => undefined, 'Non-error value thrown: undefined'],
    ['a string', () => 'plain string', 'plain string'],
    ['a number', () => 42, 'Non-error value thrown: 42'],
    ['an object', () => ({ reason: 'x' }), 'Non-error object thrown'],
  ])('a rejection with %s is a 500 INTERNAL_ERROR', async (_n, thrown, message) => {
    const app = throwingApp(express, thrown, { debug: true })
    const res = await request(app).get('/async')
    expect(res.status).toBe(500)
    expect(res.body.error.code).toBe('INTERNAL_ERROR')
    expect(res.body.message).toBe(message)
    expect(res.body.error.details).toBeNull()
  })

  it.each([
    ['a string', () => 'plain string'],
    ['a number', () => 42],
  ])('a synchronous throw of %s is a 500 INTERNAL_ERROR', async (_n, thrown) => {
    const app = throwingApp(express, thrown, { debug: false })
    const res = await request(app).get('/throw')
    expect(res.status).toBe(500)
    expect(res.body.error.code).toBe('INTERNAL_ERROR')
  })
})

describe.each(hosts)('body-parser errors on %s', (_, express) => {
  const app = throwingApp(express, () => null, { debug: false })

  it('malformed JSON is 400 INVALID_JSON', async () => {
    const res = await request(app)
      .post('/echo')
      .set('Content-Type', 'application/json')
      .send('{"a": ')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      success: false,
      message: 'Request body is not valid JSON',
      error: { code: 'INVALID_JSON', message: 'Request body is not valid JSON', details: null },
    })
  })

  it('a body over the limit is 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await request(app)
      .post('/echo')
      .send({ text: 'x'.repeat(5000) })
    expect(res.status).toBe(413)
    expect(res.body.error).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'Request body is too large',
      details: { limit: 1024 },
    })
  })

  it('an unsupported charset is 415 INVALID_CONTENT_TYPE', async () => {
    const res = await request(app)
      .post('/echo')
      .set('Content-Type', 'application/json; charset=klingon')
      .send('{}')
    expect(res.status).toBe(415)
    expect(res.body.error).toEqual({
      code: 'INVALID_CONTENT_TYPE',
      message: 'Content-Type charset is not supported: send UTF-8',
      details: {
        allowed: [
          'application/json',
          'application/*+json',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
        ],
      },
    })
    expect(res.text.toLowerCase()).not.toContain('klingon')
  })

  it('a well-formed body still works', async () => {
    const res = await request(app).post('/echo').send({ a: 1 })
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({ a: 1 })
  })
})

describe.each(hosts)('notFoundHandler on %s', (_, express) => {
  it('answers 404 Cannot <METHOD> <path>, without the query string', async () => {
    const app = throwingApp(express, () => null)
    const res = await request(app).delete('/nothing/here?x=1')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({
      success: false,
      message: 'Cannot DELETE /nothing/here',
      error: { code: 'NOT_FOUND', message: 'Cannot DELETE /nothing/here', details: null },
    })
  })

  it('uses the fixed message when given', async () => {
    const app = express()
    app.use(notFoundHandler({ message: 'No such endpoint' }))
    app.use(errorHandler({ logger: captureLogger() }))
    expect((await request(app).get('/x')).body.message).toBe('No such endpoint')
  })
})

describe.each(hosts)('onError on %s', (_, express) => {
  it('is called with the AppError and the request before the response is sent', async () => {
    const seen: Array<{ code: string; path: string; sent: boolean }> = []
    const app = express()
    app.get('/x', (_req, _res, next) => next(AppError.forbidden()))
    app.use(
      errorHandler({
        logger: captureLogger(),
        onError: (err, req) => {
          seen.push({ code: err.code, path: req.path, sent: req.res?.headersSent ?? true })
        },
      }),
    )
    expect((await request(app).get('/x')).status).toBe(403)
    expect(seen).toEqual([{ code: 'FORBIDDEN', path: '/x', sent: false }])
  })

  it("comes from shapeguard()'s errors.onError when errorHandler has none", async () => {
    const codes: string[] = []
    const app = throwingApp(
      express,
      () => AppError.conflict('Name'),
      {},
      {
        errors: { onError: (err) => codes.push(err.code) },
      },
    )
    await request(app).get('/throw')
    expect(codes).toEqual(['CONFLICT'])
  })

  it('a throwing hook is logged and the response still goes out', async () => {
    const logger = captureLogger()
    const app = express()
    app.get('/x', (_req, _res, next) => next(AppError.notFound('Page')))
    app.use(
      errorHandler({
        logger,
        onError: () => {
          throw new Error('metrics down')
        },
      }),
    )
    const res = await request(app).get('/x')
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe('NOT_FOUND')
    const hookLine = logger.records.find((r) => r.message === 'errorHandler: onError hook threw')
    expect(hookLine?.level).toBe('error')
    expect(String(hookLine?.meta.stack)).toContain('metrics down')
  })
})

describe.each(hosts)('the Content-Type of an error answer on %s', (_, express) => {
  // A handler that set another type before failing: its error answer is still JSON, never HTML a
  // browser would render (the message may echo what the client sent).
  const message = '<script>alert(1)</script>'
  function app(config: ShapeguardConfig) {
    const a = express()
    a.use(shapeguard(config))
    a.get('/throw', (_req, res) => {
      res.type('html')
      throw new AppError('CONFLICT', message, 409)
    })
    a.get('/fail', (_req, res) => {
      res.type('text/plain')
      res.fail({ code: 'CONFLICT', message, status: 409 })
    })
    a.use(errorHandler())
    return a
  }
  it.each([
    ['envelope', 'application/json; charset=utf-8'],
    ['problem+json', 'application/problem+json; charset=utf-8'],
  ] as const)('is the %s type, from errorHandler and from res.fail', async (format, type) => {
    for (const path of ['/throw', '/fail']) {
      const res = await request(app({ errors: { format } })).get(path)
      expect(res.status).toBe(409)
      expect(res.headers['content-type'], path).toBe(type)
      expect(JSON.parse(res.text).code ?? JSON.parse(res.text).error.code).toBe('CONFLICT')
    }
  })
})

describe.each(hosts)('headers already sent on %s', (_, express) => {
  it('a finished response is left alone', async () => {
    const app = express()
    app.get('/x', (_req, res, next) => {
      res.status(200).json({ done: true })
      next(new Error('late'))
    })
    app.use(errorHandler({ logger: captureLogger() }))
    const res = await request(app).get('/x')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ done: true })
  })

  it('a half-written response is cut off instead of hanging', async () => {
    const app = express()
    app.get('/x', (_req, res, next) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' })
      res.write('partial')
      setTimeout(() => next(new Error('stream broke')), 5)
    })
    app.use(errorHandler({ logger: captureLogger() }))
    await expect(request(app).get('/x').timeout(2000)).rejects.toThrow(
      /aborted|socket hang up|ECONNRESET/,
    )
  })
})

describe.each(hosts)('a failure inside errorHandler on %s', (_, express) => {
  const fallback = {
    success: false,
    message: 'Something went wrong',
    error: { code: 'INTERNAL_ERROR', message: 'Something went wrong', details: null },
  }

  it.each([false, true])(
    'an error whose message getter throws is an ordinary 500 (debug %s)',
    async (debug) => {
      const logger = captureLogger()
      const app = express()
      app.get('/x', (_req, _res, next) => {
        const err = new Error('x')
        Object.defineProperty(err, 'message', {
          get() {
            throw new Error('getter exploded')
          },
        })
        next(err)
      })
      app.use(errorHandler({ logger, debug }))
      const res = await request(app).get('/x')
      expect(res.status).toBe(500)
      expect(res.body.error.code).toBe('INTERNAL_ERROR')
      expect(res.body.message).toBe(debug ? 'Error' : 'Something went wrong')
      expect(logger.records.map((r) => r.message)).not.toContain(
        'errorHandler failed; sent the fallback error response',
      )
    },
  )

  it('details that cannot be serialised get the fallback', async () => {
    const app = express()
    app.get('/x', (_req, _res, next) => next(AppError.custom('BIG', 'big', 400, { n: 10n })))
    app.use(errorHandler({ logger: captureLogger() }))
    const res = await request(app).get('/x')
    expect(res.status).toBe(500)
    expect(res.body).toEqual(fallback)
  })

  it('a logger that throws loses its line, not the response', async () => {
    const throwing = captureLogger()
    throwing.warn = () => {
      throw new Error('log sink gone')
    }
    throwing.error = throwing.warn
    const app = express()
    app.get('/a', (_req, _res, next) => next(AppError.notFound()))
    app.get('/b', (_req, _res, next) => next(new Error('x')))
    app.use(errorHandler({ logger: throwing, debug: false }))
    expect((await request(app).get('/a')).status).toBe(404)
    const b = await request(app).get('/b')
    expect(b.status).toBe(500)
    expect(b.body.error.code).toBe('INTERNAL_ERROR')
  })

  it('the process keeps serving afterwards', async () => {
    const app = express()
    app.get('/bad', (_req, _res, next) => next(AppError.custom('BIG', 'big', 400, { n: 1n })))
    app.get('/good', (_req, res) => {
      res.json({ fine: true })
    })
    app.use(errorHandler({ logger: captureLogger() }))
    await request(app).get('/bad')
    expect((await request(app).get('/good')).body).toEqual({ fine: true })
  })
})

describe.each(hosts)('error logging on %s', (_, express) => {
  it('logs 4xx at warn without a stack and 5xx at error with the full stack', async () => {
    const logger = captureLogger()
    const app = express()
    app.get('/a', (_req, _res, next) => next(AppError.notFound('User')))
    app.get('/b', (_req, _res, next) => next(new Error('kaput', { cause: new Error('root') })))
    app.use(errorHandler({ logger, debug: false }))
    await request(app).get('/a')
    await request(app).get('/b')
    expect(logger.records).toHaveLength(2)
    const [warn, error] = logger.records
    expect(warn).toMatchObject({
      level: 'warn',
      message: 'User not found',
      meta: { code: 'NOT_FOUND', status: 404, method: 'GET', path: '/a' },
    })
    expect(warn?.meta.stack).toBeUndefined()
    expect(error).toMatchObject({
      level: 'error',
      message: 'kaput',
      meta: { code: 'INTERNAL_ERROR' },
    })
    expect(String(error?.meta.stack)).toMatch(/^Error: kaput\n\s+at /)
    expect(error?.meta.cause).toMatchObject({ message: 'root' })
  })

  it('still logs a 5xx whose cause is a hostile Proxy or whose stack getter throws', async () => {
    const logger = captureLogger()
    const app = express()
    const trap = () => {
      throw new Error('trap')
    }
    const hostileCause = new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap })
    app.get('/proxy', (_req, _res, next) =>
      next(new Error('with a proxy', { cause: hostileCause })),
    )
    app.get('/stack', (_req, _res, next) =>
      next(Object.defineProperty(new Error('bad stack'), 'stack', { get: trap })),
    )
    app.use(errorHandler({ logger, debug: false }))
    expect((await request(app).get('/proxy')).status).toBe(500)
    expect((await request(app).get('/stack')).status).toBe(500)
    expect(logger.records.map((r) => [r.level, r.message])).toEqual([
      ['error', 'with a proxy'],
      ['error', 'bad stack'],
    ])
  })

  it("logs an error once, on the request's line, through shapeguard()'s logger; an explicit one gets its own line", async () => {
    const mounted = captureLogger()
    const explicit = captureLogger()
    const discovered = express()
    discovered.use(shapeguard({ logger: { instance: mounted } }))
    discovered.get('/x', (_req, _res, next) => next(AppError.forbidden()))
    discovered.use(errorHandler())
    const overridden = express()
    overridden.use(shapeguard({ logger: { instance: mounted } }))
    overridden.get('/x', (_req, _res, next) => next(AppError.forbidden()))
    overridden.use(errorHandler({ logger: explicit }))
    const forbidden = () => mounted.records.filter((r) => r.meta.code === 'FORBIDDEN')
    await withLogging(() => request(discovered).get('/x'))
    expect(forbidden()).toHaveLength(1)
    expect(forbidden()[0]).toMatchObject({ level: 'warn', meta: { status: 403 } })
    await withLogging(() => request(overridden).get('/x'))
    expect(forbidden()).toHaveLength(2)
    expect(explicit.records).toMatchObject([{ level: 'warn', meta: { code: 'FORBIDDEN' } }])
  })

  it('hands the error to the request logger instead of logging it a second time', async () => {
    const slots: RequestLogSlot[] = []
    const app = express()
    app.use((_req, res, next) => {
      const slot: RequestLogSlot = { error: undefined, cause: undefined }
      contextOf(res).log = slot as never
      slots.push(slot)
      next()
    })
    const thrown = new TypeError('undefined is not a function')
    app.get('/x', (_req, _res, next) => next(thrown))
    app.use(errorHandler())
    const write = vi.spyOn(logger, 'error')
    try {
      await request(app).get('/x')
      expect(write).not.toHaveBeenCalled()
    } finally {
      write.mockRestore()
    }
    expect(slots[0]?.cause).toBe(thrown)
    expect(slots[0]?.error).toMatchObject({ code: 'INTERNAL_ERROR', isOperational: false })
  })
})
