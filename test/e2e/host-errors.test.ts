import { gzipSync } from 'node:zlib'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  configureLogger,
  errorHandler,
  handle,
  notFoundHandler,
  shapeguard,
} from '../../src/index.js'
import { captureLogger, type Express, hosts } from '../support/e2e.js'

// Client mistakes the host framework reports (router, body parsers, send) reach the client as a
// 4xx in the envelope, in our words: never a 500, never the host's message (which echoes the
// request), never an error-level log line with a stack.
beforeAll(() => {
  configureLogger({ silent: true })
})

function hostApp(express: Express) {
  const logger = captureLogger()
  const app = express()
  app.use(express.json({ limit: '1kb' }))
  app.use(express.urlencoded({ extended: true, parameterLimit: 5 }))
  app.use(shapeguard({ debug: false }))
  app.get('/users/:id', (req, res) => {
    res.json({ id: req.params.id })
  })
  app.post('/echo', ...handle({}, (req, res) => res.ok({ data: req.body })))
  app.get('/file', (_req, res, next) => {
    res.sendFile('/nonexistent/secret-dir/passwords.txt', (err) => next(err))
  })
  // What http-errors' createError(404, 'User 5 not found') makes: `expose` on the prototype.
  class NotFoundError extends Error {}
  Object.assign(NotFoundError.prototype, { status: 404, statusCode: 404, expose: true })
  app.get('/exposed', () => {
    throw new NotFoundError('User 5 not found')
  })
  app.use('/static', express.static(import.meta.dirname, { fallthrough: false, dotfiles: 'deny' }))
  app.use(notFoundHandler())
  app.use(errorHandler({ logger }))
  return { app, logger }
}

function expectQuiet(logger: ReturnType<typeof captureLogger>): void {
  expect(logger.records.filter((r) => r.level === 'error')).toEqual([])
  expect(logger.records.some((r) => r.meta.stack !== undefined)).toBe(false)
}

describe.each(hosts)('host client errors on %s', (_, express) => {
  it.each(['/users/%E0%80%80', '/users/%', '/users/%ZZ', '/users/a%C0b'])(
    'malformed percent-encoding %s is 400 BAD_REQUEST without echo',
    async (path) => {
      const { app, logger } = hostApp(express)
      const res = await request(app).get(path)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        success: false,
        message: 'Malformed URL encoding in the path',
        error: {
          code: 'BAD_REQUEST',
          message: 'Malformed URL encoding in the path',
          details: null,
        },
      })
      expectQuiet(logger)
      expect(logger.records).toMatchObject([{ level: 'warn', meta: { code: 'BAD_REQUEST' } }])
    },
  )

  it('an error its creator marked expose keeps its own message, as Express sends it', async () => {
    const { app, logger } = hostApp(express)
    const res = await request(app).get('/exposed')
    expect(res.status).toBe(404)
    expect(res.body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'User 5 not found',
      details: null,
    })
    expectQuiet(logger)
  })

  it('a well-encoded path still works', async () => {
    const { app } = hostApp(express)
    expect((await request(app).get('/users/a%20b')).body).toEqual({ id: 'a b' })
  })

  it('a JSON body that is not an object or array under strict is 400 INVALID_JSON, body not echoed', async () => {
    const { app, logger } = hostApp(express)
    const res = await request(app)
      .post('/echo')
      .set('Content-Type', 'application/json')
      .send('"sekrit"')
    expect(res.status).toBe(400)
    expect(res.body.error).toEqual({
      code: 'INVALID_JSON',
      message: 'Request body is not valid JSON',
      details: null,
    })
    expect(res.text).not.toContain('sekrit')
    expectQuiet(logger)
  })

  it('too many url-encoded parameters is 413 PAYLOAD_TOO_LARGE', async () => {
    const { app, logger } = hostApp(express)
    const res = await request(app).post('/echo').type('form').send('a=1&b=2&c=3&d=4&e=5&f=6&g=7')
    expect(res.status).toBe(413)
    expect(res.body.error).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'Request body has too many parameters',
      details: null,
    })
    expectQuiet(logger)
  })

  it('a url-encoded body nested past the parser depth is 400 BAD_REQUEST', async () => {
    const { app, logger } = hostApp(express)
    const res = await request(app)
      .post('/echo')
      .type('form')
      .send(`a${'[b]'.repeat(40)}=1`)
    expect(res.status).toBe(400)
    expect(res.body.error).toEqual({
      code: 'BAD_REQUEST',
      message: 'Request body is nested too deeply',
      details: null,
    })
    expectQuiet(logger)
  })

  it('an unknown Content-Encoding is 415 INVALID_CONTENT_TYPE, not echoed', async () => {
    const { app, logger } = hostApp(express)
    const res = await request(app)
      .post('/echo')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'x-klingon')
      .send('{}')
    expect(res.status).toBe(415)
    expect(res.body.error.code).toBe('INVALID_CONTENT_TYPE')
    expect(res.body.error.message).toBe(
      'Content-Encoding is not supported: send identity, gzip or deflate',
    )
    expect(res.text.toLowerCase()).not.toContain('klingon')
    expectQuiet(logger)
  })

  it('an unsupported charset on a form body is 415 INVALID_CONTENT_TYPE, not echoed', async () => {
    const { app, logger } = hostApp(express)
    const res = await request(app)
      .post('/echo')
      .set('Content-Type', 'application/x-www-form-urlencoded; charset=koi8-r')
      .send('a=1')
    expect(res.status).toBe(415)
    expect(res.body.error).toMatchObject({
      code: 'INVALID_CONTENT_TYPE',
      message: 'Content-Type charset is not supported: send UTF-8',
      details: { allowed: expect.arrayContaining(['application/json']) },
    })
    expect(res.text.toLowerCase()).not.toContain('koi8')
    expectQuiet(logger)
  })

  it('a corrupt gzip body is 400 BAD_REQUEST, with the message body-parser exposes', async () => {
    const { app, logger } = hostApp(express)
    const corrupt = gzipSync('{"a":1}').subarray(0, 12)
    const res = await request(app)
      .post('/echo')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send(corrupt)
    expect(res.status).toBe(400)
    // body-parser marks the decoder's error `expose`; its text names no part of the request.
    expect(res.body.error).toEqual({
      code: 'BAD_REQUEST',
      message: 'incorrect header check',
      details: null,
    })
    expectQuiet(logger)
  })

  it('a missing file sent with res.sendFile is 404 NOT_FOUND without the server path', async () => {
    const { app, logger } = hostApp(express)
    const res = await request(app).get('/file')
    expect(res.status).toBe(404)
    expect(res.body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'Resource not found',
      details: null,
    })
    expect(res.text).not.toContain('secret-dir')
    expectQuiet(logger)
  })

  it('express.static without fallthrough answers 404 and 403 in the envelope', async () => {
    const { app, logger } = hostApp(express)
    const missing = await request(app).get('/static/nope.txt')
    expect(missing.status).toBe(404)
    expect(missing.body.error.code).toBe('NOT_FOUND')
    const dot = await request(app).get('/static/.hidden')
    expect(dot.status).toBe(403)
    expect(dot.body.error).toEqual({ code: 'FORBIDDEN', message: 'Forbidden', details: null })
    expectQuiet(logger)
  })
})
