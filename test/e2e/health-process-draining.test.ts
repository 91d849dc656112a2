import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { configureLogger, health, shapeguard } from '../../src/index.js'
import { markProcessDraining } from '../../src/runtime/lifecycle/drain-state.js'
import { hosts } from '../support/e2e.js'

// Its own file, one test for both hosts: a process shutdown, once begun, is never undone in
// this module.

configureLogger({ silent: true })

describe('health() once the process drains', () => {
  it('answers readiness 503 NOT_READY without running a check on Express 4 and 5; liveness stays 200', async () => {
    let calls = 0
    const apps = hosts.map(([, express]) => {
      const app = express()
      app.use(shapeguard({ debug: false }))
      app.use(health({ checks: { db: () => ++calls > 0 } }))
      return app
    })
    for (const app of apps) await request(app).get('/readyz').expect(200)
    markProcessDraining()
    for (const app of apps) {
      const ready = await request(app).get('/readyz').expect(503)
      expect(ready.body.error).toMatchObject({ code: 'NOT_READY', details: { draining: true } })
      expect(ready.headers['cache-control']).toBe('no-store')
      await request(app).get('/healthz').expect(200)
    }
    expect(calls).toBe(2)
  })
})
