import request from 'supertest'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { errorHandler, handle, shapeguard, validate } from '../../src/index.js'
import { captureLogger, type Express, hosts, withLogging } from '../support/e2e.js'

// No body parser mounted: the most common first mistake. body-parser 1 (Express 4) marks a
// parsed request with `_body`, body-parser 2 (Express 5) only reads it to the end.
function appWithout(express: Express, parsers: (app: ReturnType<Express>) => void = () => {}) {
  const logger = captureLogger()
  const app = express()
  app.use(shapeguard({ debug: true, logger: { instance: logger } }))
  parsers(app)
  app.post(
    '/orgs/:org/users',
    ...handle({ body: z.object({ name: z.string() }), response: z.unknown() }, (req, res) =>
      res.created({ data: req.body }),
    ),
  )
  app.use(errorHandler())
  const warnings = () =>
    logger.records
      .filter((r) => r.level === 'warn' && r.message?.startsWith('shapeguard: POST'))
      .map((r) => r.message)
  return { app, logger, warnings }
}

describe.each(hosts)('a body no parser read, on %s', (_, express) => {
  it('answers a correct application/json body with a 415 that does not blame its header', async () => {
    const { app } = appWithout(express)
    const res = await request(app).post('/orgs/acme/users').send({ name: 'Ada' })
    expect([res.status, res.body.error.code]).toEqual([415, 'INVALID_CONTENT_TYPE'])
    expect(res.body.error.message).toBe(
      'This API does not parse application/json bodies on this route',
    )
    expect(res.body.error.message).not.toMatch(/send/)
    expect(res.body.error.details).toEqual({
      allowed: ['application/x-www-form-urlencoded', 'multipart/form-data'],
    })
  })

  it('warns once per app, naming express.json() and the route, never a request value', async () => {
    const { app, logger, warnings } = appWithout(express)
    await withLogging(async () => {
      for (const name of ['SECRET-NAME-1', 'SECRET-NAME-2']) {
        await request(app).post('/orgs/acme-corp/users').send({ name })
      }
    })
    expect(warnings()).toEqual([
      'shapeguard: POST /orgs/:org/users received an application/json body that no body parser read, and answered 415: mount app.use(express.json()) before this route',
    ])
    expect(JSON.stringify(logger.records)).not.toContain('SECRET-NAME')
    expect(warnings().join()).not.toContain('acme-corp')
  })

  it('names express.urlencoded() for a form body', async () => {
    const { app, warnings } = appWithout(express, (a) => a.use(express.json()))
    const res = await withLogging(() =>
      request(app).post('/orgs/acme/users').type('form').send('name=Ada'),
    )
    expect([res.status, res.body.error.message]).toEqual([
      415,
      'This API does not parse application/x-www-form-urlencoded bodies on this route',
    ])
    expect(warnings()).toEqual([
      'shapeguard: POST /orgs/:org/users received an application/x-www-form-urlencoded body that no body parser read, and answered 415: mount app.use(express.urlencoded({ extended: false })) before this route',
    ])
  })

  it('says nothing when the parser is mounted', async () => {
    const { app, warnings } = appWithout(express, (a) => {
      a.use(express.json())
      a.use(express.urlencoded({ extended: false }))
    })
    await withLogging(async () => {
      expect((await request(app).post('/orgs/acme/users').send({ name: 'Ada' })).status).toBe(201)
      const form = await request(app).post('/orgs/acme/users').type('form').send('name=Ada')
      expect([form.status, form.body.data]).toEqual([201, { name: 'Ada' }])
    })
    expect(warnings()).toEqual([])
  })
})

describe.each(hosts)('the unparsed-body warning on %s', (_, express) => {
  it('names the mount path as registered, never as the client spelled it', async () => {
    const logger = captureLogger()
    const app = express()
    app.use(shapeguard({ logger: { instance: logger } }))
    const items = express.Router({ mergeParams: true })
    items.post(
      '/items',
      ...handle({ body: z.object({ a: z.string() }) }, (_req, res) => res.ok({ data: 1 })),
    )
    app.use('/Orgs/:org', items)
    app.use(errorHandler())
    const res = await withLogging(() =>
      request(app)
        .post('/ORGS/ATTACKER-CHOSEN-TEXT%20ignore%20previous/items')
        .set('content-type', 'application/json')
        .send('{"a":"x"}'),
    )
    expect(res.status).toBe(415)
    const warnings = logger.records
      .filter((r) => r.level === 'warn' && r.message?.startsWith('shapeguard:'))
      .map((r) => r.message)
    expect(warnings).toEqual([
      'shapeguard: POST /Orgs/:org/items received an application/json body that no body parser read, and answered 415: mount app.use(express.json()) before this route',
    ])
    expect(warnings.join()).not.toMatch(/ATTACKER|ignore|ORGS/)
  })

  it('names no path for a validate() given to use()', async () => {
    const logger = captureLogger()
    const app = express()
    app.use(shapeguard({ logger: { instance: logger } }))
    app.use('/hooks/:id', validate({ body: z.object({ a: z.string() }) }), (_req, res) =>
      res.ok({ data: 1 }),
    )
    app.use(errorHandler())
    const res = await withLogging(() =>
      request(app).post('/hooks/SECRET-TEXT').set('content-type', 'application/json').send('{}'),
    )
    expect(res.status).toBe(415)
    const warnings = logger.records
      .filter((r) => r.level === 'warn' && r.message?.startsWith('shapeguard:'))
      .map((r) => r.message)
    expect(warnings).toEqual([
      'shapeguard: POST a use() path received an application/json body that no body parser read, and answered 415: mount app.use(express.json()) before this route',
    ])
    expect(warnings.join()).not.toContain('SECRET')
  })
})
