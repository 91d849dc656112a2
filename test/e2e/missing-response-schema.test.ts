import { readFileSync } from 'node:fs'
import request from 'supertest'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { configureLogger, handle, type ShapeguardConfig, shapeguard } from '../../src/index.js'
import { captureLogger, type Express, hosts } from '../support/e2e.js'

// A route without a response schema sends every field its handler passes: in development the
// first answer with data of each such route is logged once as a warning, unless turned off.

// What was logged at warn, through the logger given to shapeguard().
let capture = captureLogger()
beforeEach(() => {
  configureLogger({ silent: false })
  capture = captureLogger()
})

afterEach(() => {
  configureLogger({ silent: true })
})

const warned = () =>
  capture.records.filter((r) => r.level === 'warn').map(({ meta, message }) => ({ meta, message }))

// Written inside the request, the warning carries its ID.
const warning = (method: string, endpoint: string) => ({
  meta: { requestId: expect.stringMatching(/^req_/), method, endpoint },
  message: `shapeguard: ${method} ${endpoint} sent data without a response schema, so every field its handler passes reaches the client: give the route a response schema, or turn this warning off with warnings.missingResponseSchema false on the route or in shapeguard()`,
})

const user = { id: 7, name: 'Ada', passwordHash: 'x' }
const id = z.object({ id: z.coerce.number() })

function app(express: Express, config: ShapeguardConfig = { debug: true }) {
  const app = express()
  app.use(shapeguard({ ...config, logger: { instance: capture } }))
  const users = express.Router()
  users.get('/:id', ...handle({ params: id }, (_req, res) => res.ok({ data: user })))
  users.get(
    '/:id/public',
    ...handle({ params: id, response: z.object({ id: z.number() }) }, (_req, res) =>
      res.ok({ data: user }),
    ),
  )
  users.get(
    '/:id/quiet',
    ...handle({ params: id, warnings: { missingResponseSchema: false } }, (_req, res) =>
      res.ok({ data: user }),
    ),
  )
  app.use('/users', users)
  app.get('/plain', (_req, res) => res.ok({ data: [user] }))
  app.get('/page', (_req, res) => res.paginated({ data: [user], total: 1, page: 1, limit: 10 }))
  app.get('/count', (_req, res) => res.ok({ data: 3 }))
  app.get('/nothing', (_req, res) => res.ok())
  app.delete('/gone', (_req, res) => res.noContent())
  app.get('/away', (_req, res) => res.redirect('/plain'))
  return app
}

describe.each(hosts)('the missing response schema warning on %s', (_, express) => {
  it('names the route as registered, once however often it answers, no request value', async () => {
    const server = app(express)
    for (const path of ['/users/7?token=secret', '/users/8', '/USERS/9/']) {
      expect((await request(server).get(path)).body.data).toEqual(user)
    }
    expect(warned()).toEqual([warning('GET', '/users/:id')])
  })

  it('warns for each route that sends data without one, plain routes and paginated too', async () => {
    const server = app(express)
    for (const path of ['/plain', '/page', '/plain', '/users/1']) await request(server).get(path)
    expect(warned()).toEqual([
      warning('GET', '/plain'),
      warning('GET', '/page'),
      warning('GET', '/users/:id'),
    ])
  })

  it('says nothing of a route with a response schema, nor of answers that carry no fields', async () => {
    const server = app(express)
    for (const path of ['/users/1/public', '/count', '/nothing', '/away']) {
      await request(server).get(path)
    }
    expect((await request(server).delete('/gone')).status).toBe(204)
    expect(warned()).toEqual([])
  })

  it('is off for a route given warnings: { missingResponseSchema: false }', async () => {
    const server = app(express)
    expect((await request(server).get('/users/1/quiet')).body.data).toEqual(user)
    await request(server).get('/users/1')
    expect(warned()).toEqual([warning('GET', '/users/:id')])
  })

  it.each<[string, ShapeguardConfig]>([
    ['off for the app', { debug: true, warnings: { missingResponseSchema: false } }],
    ['never in production', { debug: false }],
    [
      'never in production, even asked for',
      { debug: false, warnings: { missingResponseSchema: true } },
    ],
  ])('is %s', async (_, config) => {
    const server = app(express, config)
    for (const path of ['/users/1', '/plain', '/page']) await request(server).get(path)
    expect(warned()).toEqual([])
  })
})

it('is the warning docs/responses-and-errors.md shows', () => {
  const doc = readFileSync(new URL('../../docs/responses-and-errors.md', import.meta.url), 'utf8')
  expect(doc).toContain(`\n${warning('GET', '/users/:id').message}\n`)
})
