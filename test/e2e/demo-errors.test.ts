import { configureLogger } from 'shapeguard'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApp, demoErrors } from '../../examples/demo/app.js'

// The demo imports the built package, as a user would; its logger is the package's singleton.
beforeAll(() => {
  configureLogger({ silent: true })
})

describe('the demo error paths', () => {
  it.each(demoErrors)('$method $url answers $status ($shows)', async (e) => {
    const app = createApp()
    const call = request(app)[e.method.toLowerCase() as 'get'](e.url)
    const res = await ('body' in e
      ? call.set('Content-Type', 'application/json').send(e.body)
      : call)
    expect(res.status).toBe(e.status)
    expect(res.body.success).toBe(false)
    expect(typeof res.body.error.code).toBe('string')
    expect(res.body.message).toBe(res.body.error.message)
  })

  it('names the allowed methods on a 405', async () => {
    const res = await request(createApp()).patch('/users/1')
    expect(res.headers.allow).toBe('GET, HEAD, DELETE')
  })
})
