import { configureLogger } from 'shapeguard'
import { fuzzRoutes } from 'shapeguard/testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/demo/app.js'
import { demoOpenAPI } from '../../examples/demo/openapi.js'

// The demo imports the built package, as a user would: so does its fuzz test.
beforeAll(() => {
  configureLogger({ silent: true })
})

// What the demo's handlers answer that its OpenAPI document does not list: generateOpenAPI has no
// route option yet to document a handler's own errors (404, 409, 403, 410, res.fail's 400) or
// another success status than the method's default (res.noContent's 204, res.accepted's 202).
const undocumented = {
  'GET /users/:id': [404],
  'POST /users': [409],
  'DELETE /users/:id': [204, 403],
  'POST /checkout': [202, 400, 410],
}

// /slow waits 250 ms by design: one request proves nothing more than the others.
const fast = (r: { path: string }) => r.path !== '/slow'

describe('the demo under fuzzRoutes', () => {
  it('keeps every route within its contract', async () => {
    const app = createApp()
    const report = await fuzzRoutes(app, {
      runs: Math.min(Number(process.env.FUZZ_RUNS ?? 60), 2000),
      seed: 2026,
      routes: fast,
      openapi: demoOpenAPI(app),
      statuses: undocumented,
    })
    expect(report.failures).toEqual([])
    expect(report.routes.map((r) => r.route)).toEqual([
      'GET /users',
      'POST /users',
      'GET /users/:id',
      'DELETE /users/:id',
      'GET /feed',
      'POST /checkout',
      'stateful',
    ])
    // Every route alone without a note; the stateful entry names the users resource it ran.
    expect(report.routes.slice(0, -1).every((r) => r.notes.length === 0)).toBe(true)
    expect(report.routes.at(-1)!.requests).toBeGreaterThan(0)
  }, 60_000)

  it('reports the statuses its document does not list', async () => {
    const app = createApp()
    await expect(
      fuzzRoutes(app, {
        runs: 30,
        seed: 2026,
        routes: ['GET /users/:id'],
        openapi: demoOpenAPI(app),
      }),
    ).rejects.toThrow(/GET \/users\/:id: answered 404, a status the OpenAPI document does not list/)
  }, 60_000)
})
