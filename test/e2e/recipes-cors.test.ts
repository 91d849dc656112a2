import request from 'supertest'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { configureLogger } from '../../src/index.js'
import { logger } from '../../src/runtime/logging/logger.js'
import { hosts } from '../support/e2e.js'
import { recipeExample } from './recipe-example.js'

// docs/recipes/cors.md: its example app, on Express 4 and 5, answers a preflight and every answer
// (success, 422, 404) with the CORS headers the recipe shows, and nothing to another origin.

const origin = 'https://app.example.com'

beforeAll(() => {
  configureLogger({ silent: true })
})

describe.each(hosts)('%s: the CORS recipe', (host) => {
  let app: Parameters<typeof request>[0]
  beforeAll(async () => {
    const code = await recipeExample<{ app: typeof app }>('cors', host, 'export { app }\n')
    app = code.app
  })

  const allowed = (res: request.Response) => {
    expect(res.headers['access-control-allow-origin']).toBe(origin)
    expect(res.headers['access-control-allow-credentials']).toBe('true')
    expect(res.headers['access-control-expose-headers']).toBe('X-Request-Id,Retry-After')
    expect(res.headers.vary).toMatch(/Origin/)
  }

  it('answers a preflight with 204 before any route, without a request line', async () => {
    const info = vi.spyOn(logger, 'info')
    const res = await request(app)
      .options('/orders')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type,authorization')
    expect(res.status).toBe(204)
    expect(res.headers['access-control-allow-origin']).toBe(origin)
    expect(res.headers['access-control-allow-methods']).toContain('POST')
    expect(res.headers['access-control-allow-headers']).toBe('content-type,authorization')
    expect(res.headers['access-control-max-age']).toBe('600')
    expect(res.headers['x-request-id']).toBeUndefined() // shapeguard() never saw it
    expect(info).not.toHaveBeenCalled()
    info.mockRestore()
  })

  it('carries the headers on a success', async () => {
    const res = await request(app)
      .post('/orders')
      .set('Origin', origin)
      .send({ sku: 'A-1', quantity: 2 })
    expect(res.status).toBe(201)
    allowed(res)
    expect(res.body.data).toEqual({ id: 'ord_1', sku: 'A-1', quantity: 2 })
  })

  it('carries the headers on a 422 from the schemas and a 404, as the recipe shows', async () => {
    const res = await request(app).post('/orders').set('Origin', origin).send({ sku: '' })
    expect(res.status).toBe(422)
    allowed(res)
    expect(res.headers['x-request-id']).toMatch(/^req_/)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.body.error.code).toBe('VALIDATION_ERROR')
    const missing = await request(app).get('/nowhere').set('Origin', origin)
    expect(missing.status).toBe(404)
    allowed(missing)
  })

  it('gives another origin no Access-Control-Allow-Origin, and still runs the route', async () => {
    const res = await request(app)
      .post('/orders')
      .set('Origin', 'https://evil.example')
      .send({ sku: 'A-1', quantity: 1 })
    expect(res.status).toBe(201)
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
  })
})
