import express from 'express'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createRouter, errorHandler, notFoundHandler } from '../../../src/index.js'
import { captureLogger } from '../../support/e2e.js'
import { misuse } from '../../support/misuse.js'

// What any copy of the package reads: the context under its global key, and its method tables.
function allowedOf(res: object): unknown {
  const context = (res as Record<symbol, { allowed?: unknown } | undefined>)[
    Symbol.for('shapeguard.context')
  ]
  return context?.allowed
}

describe('createRouter', () => {
  it('rejects a misspelt option, naming it and listing the options', () => {
    expect(() => createRouter({ mergeParam: true } as never)).toThrow(
      misuse(
        'SG_ERR_UNKNOWN_OPTION',
        'shapeguard: createRouter(): mergeParam is not an option (Router, caseSensitive, mergeParams, strict)',
      ),
    )
    expect(() =>
      createRouter({ mergeParams: true, strict: true, caseSensitive: true }),
    ).not.toThrow()
  })

  it("uses the installed express package's Router by default", async () => {
    const router = createRouter()
    router.get('/x', (_req, res) => {
      res.json({ hit: true })
    })
    const app = express()
    app.use(router)
    app.use(notFoundHandler())
    app.use(errorHandler({ logger: captureLogger() }))
    expect((await request(app).get('/x')).body).toEqual({ hit: true })
    const res = await request(app).put('/x')
    expect(res.status).toBe(405)
    expect(res.body.error.details).toEqual({ allowed: ['GET', 'HEAD'] })
  })

  it('notes the route methods in the context under a global symbol and falls through', async () => {
    const router = createRouter()
    router.get('/x', (_req, res) => {
      res.json({ hit: true })
    })
    router.route('/x').post((_req, res) => {
      res.json({ hit: true })
    })
    const seen: unknown[] = []
    const app = express()
    app.use(router)
    app.use((_req, res) => {
      seen.push(allowedOf(res))
      res.json({ fell: true })
    })
    expect((await request(app).delete('/x')).body).toEqual({ fell: true })
    expect((await request(app).get('/y')).body).toEqual({ fell: true })
    expect(seen).toEqual([[{ get: true }, { post: true }], undefined])
  })

  it('notes nothing on a request a later route of the router handles', async () => {
    const router = createRouter()
    const seen: unknown[] = []
    const note = (_req: object, res: { json(body: object): void }) => {
      seen.push(allowedOf(res))
      res.json({ hit: true })
    }
    router.get('/x', note)
    router.post('/x', note)
    const app = express()
    app.use(router)
    await request(app).get('/x')
    await request(app).post('/x')
    // GET is handled by the first route; POST passes the GET route, whose table alone is noted.
    expect(seen).toEqual([undefined, { get: true }])
  })
})
