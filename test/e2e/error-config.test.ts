import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { AppError, configureLogger, errorHandler, shapeguard } from '../../src/index.js'
import { captureLogger, hosts, withLogging } from '../support/e2e.js'

// The request logger would write every request to stdout; errors are checked through the
// loggers each test passes, which errorHandler writes to directly when no request logger watches.
beforeAll(() => {
  configureLogger({ silent: true })
})

describe.each(hosts)("errorHandler and shapeguard()'s configuration on %s", (_, express) => {
  it('a body-parser error behind shapeguard() uses the renamed shape', async () => {
    const app = express()
    app.use(shapeguard({ response: { shape: { ok: '{success}', result: '{data}' } } }))
    app.use(express.json())
    app.post('/x', (req, res) => res.ok({ data: req.body }))
    app.use(errorHandler({ logger: captureLogger() }))
    const res = await request(app).post('/x').set('Content-Type', 'application/json').send('{')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      ok: false,
      error: { code: 'INVALID_JSON', message: 'Request body is not valid JSON', details: null },
    })
  })

  it('an error that skipped shapeguard() finds its configuration on app.locals', async () => {
    const logger = captureLogger()
    const app = express()
    app.use(express.json())
    app.use(shapeguard({ debug: false, logger: { instance: logger } }))
    app.post('/x', (req, res) => res.ok({ data: req.body }))
    app.use(errorHandler())
    await request(app).post('/x').send({ a: 1 })
    const res = await withLogging(() =>
      request(app).post('/x').set('Content-Type', 'application/json').send('{'),
    )
    expect(res.status).toBe(400)
    expect(logger.records.filter((r) => r.meta.code === 'INVALID_JSON')).toMatchObject([
      { level: 'warn', meta: { code: 'INVALID_JSON' } },
    ])
  })

  it('treats an AppError made by another copy of shapeguard as an AppError', async () => {
    const app = express()
    app.get('/x', (_req, _res, next) => {
      const foreign = Object.assign(new Error('Quota used up'), {
        [Symbol.for('shapeguard.AppError')]: true,
        code: 'QUOTA',
        statusCode: 402,
        details: { used: 10 },
        isOperational: true,
      })
      next(foreign)
    })
    app.use(errorHandler({ logger: captureLogger(), debug: false }))
    const res = await request(app).get('/x')
    expect(res.status).toBe(402)
    expect(res.body.error).toEqual({
      code: 'QUOTA',
      message: 'Quota used up',
      details: { used: 10 },
    })
  })

  it('keeps the cause of a wrapped error for the log', async () => {
    const logger = captureLogger()
    const app = express()
    app.get('/x', (_req, _res, next) => {
      const cause = new Error('ECONNREFUSED 10.0.0.5:5432')
      next(new AppError('DB_DOWN', 'Database unavailable', 503, null, { cause }))
    })
    app.use(errorHandler({ logger, debug: false }))
    const res = await request(app).get('/x')
    expect(res.status).toBe(503)
    expect(res.text).not.toContain('ECONNREFUSED')
    expect(logger.records[0]?.meta.cause).toMatchObject({ message: 'ECONNREFUSED 10.0.0.5:5432' })
  })
})
