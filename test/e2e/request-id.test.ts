import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  configureLogger,
  errorHandler,
  type ShapeguardConfig,
  shapeguard,
} from '../../src/index.js'
import { type Express, hosts } from '../support/e2e.js'

beforeAll(() => {
  configureLogger({ silent: true })
})

const BUILT_IN = /^req_[0-9a-f]{24}$/

function appWith(express: Express, config: ShapeguardConfig = {}) {
  const app = express()
  app.use(shapeguard(config))
  app.get('/id', (req, res) => {
    res.json({ id: req.id })
  })
  app.use(errorHandler())
  return app
}

describe.each(hosts)('request IDs on %s', (_, express) => {
  it('gives each request a 28-character, time-ordered built-in ID', async () => {
    const app = appWith(express)
    const first = (await request(app).get('/id')).body.id as string
    await new Promise((r) => setTimeout(r, 2))
    const second = (await request(app).get('/id')).body.id as string
    expect(first).toMatch(BUILT_IN)
    expect(first).toHaveLength(28)
    expect(second).not.toBe(first)
    expect(second > first).toBe(true)
  })

  it('reuses a safe upstream header and replaces an unsafe one', async () => {
    const app = appWith(express)
    const safe = await request(app).get('/id').set('x-request-id', 'abc.DEF_1:2-3')
    expect(safe.body.id).toBe('abc.DEF_1:2-3')
    for (const unsafe of ['has space', 'x'.repeat(129), 'semi;colon', 'ünïcode', '<script>']) {
      const res = await request(app).get('/id').set('x-request-id', unsafe)
      expect(res.body.id).toMatch(BUILT_IN)
    }
    const longest = 'a'.repeat(128)
    expect((await request(app).get('/id').set('x-request-id', longest)).body.id).toBe(longest)
  })

  it('reads the configured header only', async () => {
    const app = appWith(express, { requestId: { header: 'X-Correlation-Id' } })
    expect((await request(app).get('/id').set('x-correlation-id', 'corr-1')).body.id).toBe('corr-1')
    expect((await request(app).get('/id').set('x-request-id', 'other')).body.id).toMatch(BUILT_IN)
  })

  it('calls a custom generator once per request', async () => {
    let calls = 0
    const app = appWith(express, { requestId: { generator: () => `custom-${++calls}` } })
    expect((await request(app).get('/id')).body.id).toBe('custom-1')
    expect((await request(app).get('/id')).body.id).toBe('custom-2')
    expect(calls).toBe(2)
  })

  it('answers 500 when a custom generator returns no string', async () => {
    const app = appWith(express, { debug: true, requestId: { generator: () => '' } })
    const res = await request(app).get('/id')
    expect(res.status).toBe(500)
    expect(res.body.error.message).toMatch(/requestId\.generator: must return a non-empty string/)
  })

  it('sets req.id to the empty string when disabled, and sends no header', async () => {
    const app = appWith(express, {
      requestId: { enabled: false },
      response: { includeRequestId: true },
    })
    const res = await request(app).get('/id').set('x-request-id', 'upstream')
    expect(res.body.id).toBe('')
    expect(res.headers['x-request-id']).toBeUndefined()
  })

  it('sends X-Request-Id with response.includeRequestId, on errors too', async () => {
    const app = appWith(express, { response: { includeRequestId: true } })
    const ok = await request(app).get('/id')
    expect(ok.headers['x-request-id']).toBe(ok.body.id)
    const missing = await request(app).get('/nowhere').set('x-request-id', 'trace-1')
    expect(missing.headers['x-request-id']).toBe('trace-1')
    const off = await request(appWith(express)).get('/id')
    expect(off.headers['x-request-id']).toBeUndefined()
  })

  it('rejects bad options when mounted', () => {
    expect(() => shapeguard({ requestId: { header: 'bad header' } })).toThrow(/requestId\.header/)
    expect(() => shapeguard({ requestId: { generator: 'x' as never } })).toThrow(
      /requestId\.generator: must be a function/,
    )
    expect(() => shapeguard({ requestId: { enabled: 'no' as never } })).toThrow(
      /requestId\.enabled: must be a boolean/,
    )
  })
})
