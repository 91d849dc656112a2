import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  asyncHandler,
  configureLogger,
  errorHandler,
  handle,
  shapeguard,
  validate,
} from '../../src/index.js'
import { captureLogger, type Express, hosts, withLogging } from '../support/e2e.js'

// Whatever user code throws, the client gets the generic 500 in production and never the
// thrown value's own text; reading it never runs a getter or a throwing Proxy trap.
beforeAll(() => {
  configureLogger({ silent: true })
})

const trap = () => {
  throw new Error('trap ran: secret')
}

const thrownValues: Array<[string, () => unknown]> = [
  [
    "{type: 'constructor'}",
    () => ({ type: 'constructor', code: 'SECRET_CODE', message: 'secret', status: 400 }),
  ],
  ["{type: 'toString'}", () => ({ type: 'toString', message: 'secret' })],
  ["{type: '__proto__'}", () => ({ type: '__proto__', message: 'secret' })],
  [
    'a plain object posing as a host error',
    () => ({ type: 'entity.parse.failed', status: 400, expose: true, message: 'secret' }),
  ],
  ['a plain exposed 4xx', () => ({ status: 400, expose: true, message: 'secret' })],
  ['Object.create(null)', () => Object.assign(Object.create(null), { message: 'secret' })],
  ['a frozen object', () => Object.freeze({ code: 'SECRET_CODE', message: 'secret' })],
  ['a string', () => 'secret'],
  ['a number', () => 4031337],
  [
    'an object with throwing getters',
    () => ({
      get message() {
        return trap()
      },
      get status() {
        return trap()
      },
      get type() {
        return trap()
      },
    }),
  ],
  [
    'an error with a throwing status getter',
    () =>
      Object.defineProperty(new Error('boom'), 'status', {
        get: trap,
      }),
  ],
  [
    'a Proxy whose traps throw',
    () =>
      new Proxy(
        {},
        {
          get: trap,
          getPrototypeOf: trap,
          getOwnPropertyDescriptor: trap,
          has: trap,
          ownKeys: trap,
        },
      ),
  ],
  [
    'a Proxy of an Error whose traps throw',
    () =>
      new Proxy(new Error('secret'), {
        get: trap,
        getPrototypeOf: trap,
        getOwnPropertyDescriptor: trap,
        has: trap,
        ownKeys: trap,
      }),
  ],
]

function appThrowing(express: Express, thrown: () => unknown, debug: boolean) {
  const logger = captureLogger()
  const app = express()
  app.use(express.json())
  app.use(shapeguard({ debug, logger: { instance: logger } }))
  app.get('/sync', () => {
    throw thrown()
  })
  app.get(
    '/async',
    asyncHandler(async () => {
      throw thrown()
    }),
  )
  app.get(
    '/handle',
    ...handle({}, async () => {
      throw thrown()
    }),
  )
  app.post(
    '/transform',
    validate({
      transform: async () => {
        throw thrown()
      },
    }),
    (_req, res) => res.ok({}),
  )
  app.use(errorHandler())
  return { app, logger }
}

const paths = ['/sync', '/async', '/handle'] as const

describe.each(hosts)('a thrown non-Error on %s', (_, express) => {
  it.each(thrownValues)('%s is the generic 500 in production', async (_n, thrown) => {
    const { app } = appThrowing(express, thrown, false)
    const responses = await withLogging(async () => [
      ...(await Promise.all(paths.map((path) => request(app).get(path)))),
      await request(app).post('/transform').send({ a: 1 }),
    ])
    for (const res of responses) {
      expect(res.status).toBe(500)
      expect(res.body).toEqual({
        success: false,
        message: 'Something went wrong',
        error: { code: 'INTERNAL_ERROR', message: 'Something went wrong', details: null },
      })
    }
  })

  // A string or a number thrown is shown as it is in development, like an Error's message.
  it.each(thrownValues.filter(([name]) => name !== 'a string' && name !== 'a number'))(
    '%s is a 500 INTERNAL_ERROR without its own text in development',
    async (_n, thrown) => {
      const { app, logger } = appThrowing(express, thrown, true)
      const responses = await withLogging(async () => [
        ...(await Promise.all(paths.map((path) => request(app).get(path)))),
        await request(app).post('/transform').send({ a: 1 }),
      ])
      for (const res of responses) {
        expect(res.status).toBe(500)
        expect(res.body.error.code).toBe('INTERNAL_ERROR')
        expect(res.text).not.toContain('secret')
        expect(res.text).not.toContain('SECRET_CODE')
        expect(res.text).not.toContain('4031337')
      }
      const errors = logger.records.filter((r) => r.level === 'error')
      expect(errors.length).toBeGreaterThanOrEqual(responses.length)
      expect(JSON.stringify(errors)).not.toContain('trap ran')
    },
  )
})
