import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { configureLogger, errorHandler, handle, validate } from '../../src/index.js'
import { captureLogger, type Express, hosts } from '../support/e2e.js'

// Forgetting app.use(shapeguard()): handle() and validate() routes still have the response
// helpers, with the default configuration, and a plain route that calls them gets an error that
// names shapeguard(), never a bare "res.ok is not a function".
beforeAll(() => {
  configureLogger({ silent: true })
})

const User = z.object({ id: z.number(), name: z.string() })

function bareApp(express: Express, debug: boolean) {
  const logger = captureLogger()
  const app = express()
  app.use(express.json())
  app.get(
    '/ok',
    ...handle({ response: User }, async (_req, res) => {
      res.ok({ data: { id: 1, name: 'Ada', secret: 'x' } as never })
    }),
  )
  app.post(
    '/created',
    ...handle({ body: z.object({ name: z.string() }) }, async (req, res) => {
      res.created({ data: { name: req.body.name } })
    }),
  )
  app.get(
    '/fail',
    ...handle({}, async (_req, res) => {
      res.fail({ code: 'NOPE', message: 'No', status: 409 })
    }),
  )
  app.get('/validated', validate({}), (_req, res) => {
    res.ok({ data: 'plain' })
  })
  app.get('/plain', (_req, res) => {
    res.ok({ data: 'never' })
  })
  app.get('/bug', () => {
    const user = undefined as unknown as { name: string }
    return user.name
  })
  app.use(errorHandler({ logger, debug }))
  return { app, logger }
}

describe.each(hosts)('without shapeguard() on %s', (_, express) => {
  it('handle() routes have res.ok, res.created and res.fail with the defaults', async () => {
    const { app } = bareApp(express, false)
    const ok = await request(app).get('/ok')
    expect(ok.status).toBe(200)
    expect(ok.body).toEqual({ success: true, message: '', data: { id: 1, name: 'Ada' } })
    const created = await request(app).post('/created').send({ name: 'Bo' })
    expect(created.status).toBe(201)
    expect(created.body.data).toEqual({ name: 'Bo' })
    const fail = await request(app).get('/fail')
    expect(fail.status).toBe(409)
    expect(fail.body).toEqual({
      success: false,
      message: 'No',
      error: { code: 'NOPE', message: 'No', details: null },
    })
  })

  it('validate() routes have the helpers too', async () => {
    const { app } = bareApp(express, false)
    const res = await request(app).get('/validated')
    expect(res.status).toBe(200)
    expect(res.body.data).toBe('plain')
  })

  it('errorHandler answers validation errors in the envelope', async () => {
    const { app } = bareApp(express, false)
    const res = await request(app).post('/created').send({ name: 1 })
    expect(res.status).toBe(422)
    expect(res.body.error.code).toBe('VALIDATION_ERROR')
  })

  it('a plain route calling res.ok gets an error naming shapeguard()', async () => {
    const dev = bareApp(express, true)
    const res = await request(dev.app).get('/plain')
    expect(res.status).toBe(500)
    expect(res.body.error.code).toBe('INTERNAL_ERROR')
    expect(res.body.message).toContain('shapeguard()')
    expect(res.body.message).not.toMatch(/^res\.ok is not a function$/)
    const line = dev.logger.records.find((r) => r.level === 'error')
    expect(line?.message).toContain('shapeguard()')
    const prod = bareApp(express, false)
    const hidden = await request(prod.app).get('/plain')
    expect(hidden.body.message).toBe('Something went wrong')
    expect(prod.logger.records.find((r) => r.level === 'error')?.message).toContain('shapeguard()')
  })

  it('any other TypeError keeps its own message', async () => {
    const dev = bareApp(express, true)
    const res = await request(dev.app).get('/bug')
    expect(res.status).toBe(500)
    expect(res.body.message).toMatch(/^Cannot read properties of undefined/)
    expect(res.body.message).not.toContain('shapeguard()')
  })
})
