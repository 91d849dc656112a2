import request from 'supertest'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { configureLogger, errorHandler, handle, shapeguard } from '../../src/index.js'
import { type Express, hosts } from '../support/e2e.js'

// Express's documented way to extend responses is `app.response`, and body-capturing loggers and
// agents patch `express.response`: shapeguard's own JSON writer must never go around them.

beforeAll(() => {
  configureLogger({ silent: true })
})

const User = z.object({ id: z.number(), name: z.string() })

function appOf(express: Express) {
  const app = express()
  app.use(shapeguard())
  app.get(
    '/users/1',
    ...handle({ response: User }, async (_req, res) => {
      res.ok({ data: { id: 1, name: 'Ada', passwordHash: 'x' } as never })
    }),
  )
  app.get('/fail', (_req, res) => res.fail({ code: 'NOPE', message: 'No' }))
  app.use(errorHandler())
  return app
}

describe.each(hosts)('%s', (_, express) => {
  const base = express.response as unknown as Record<string, unknown>
  const original = { json: base.json, send: base.send }
  afterEach(() => {
    base.json = original.json
    base.send = original.send
  })

  it.each(['json', 'send'] as const)(
    'an app.response.%s override sees every answer, stripped',
    async (method) => {
      const app = appOf(express)
      const seen: unknown[] = []
      const proto = app.response as unknown as Record<string, unknown>
      const host = proto[method] as (this: unknown, body: unknown) => unknown
      proto[method] = function (this: unknown, body: unknown) {
        seen.push(body)
        return host.call(this, body)
      }
      const res = await request(app).get('/users/1')
      expect(res.body).toEqual({ success: true, message: '', data: { id: 1, name: 'Ada' } })
      expect((await request(app).get('/fail')).status).toBe(400)
      expect(seen.length).toBeGreaterThanOrEqual(2)
      expect(JSON.stringify(seen)).not.toContain('passwordHash')
    },
  )

  it.each(['json', 'send'] as const)(
    'an express.response.%s patch (an agent, a logger) sees every answer',
    async (method) => {
      const seen: unknown[] = []
      const host = base[method] as (this: unknown, body: unknown) => unknown
      base[method] = function (this: unknown, body: unknown) {
        seen.push(body)
        return host.call(this, body)
      }
      const app = appOf(express)
      const res = await request(app).get('/users/1')
      expect(res.body).toEqual({ success: true, message: '', data: { id: 1, name: 'Ada' } })
      expect(seen.length).toBeGreaterThanOrEqual(1)
    },
  )

  it('writes the answer itself once the host functions are back', async () => {
    // The check is made once per pair of functions: restoring them restores the fast path,
    // with the same bytes as res.json.
    const res = await request(appOf(express)).get('/users/1')
    expect(res.text).toBe('{"success":true,"message":"","data":{"id":1,"name":"Ada"}}')
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  })
})
