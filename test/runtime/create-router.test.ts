import express from 'express'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createRouter, errorHandler } from '../../src/index.js'
import { captureLogger } from '../e2e/support.js'

describe('createRouter', () => {
  it("uses the installed express package's Router by default", async () => {
    const router = createRouter()
    router.get('/x', (_req, res) => {
      res.json({ hit: true })
    })
    const app = express()
    app.use(router)
    app.use(errorHandler({ logger: captureLogger() }))
    expect((await request(app).get('/x')).body).toEqual({ hit: true })
    const res = await request(app).put('/x')
    expect(res.status).toBe(405)
    expect(res.body.error.details).toEqual({ allowed: ['GET', 'HEAD'] })
  })

  it('passes router options to the factory it is given', () => {
    const seen: unknown[] = []
    createRouter({
      mergeParams: true,
      strict: true,
      Router: (options) => {
        seen.push(options)
        return express.Router(options)
      },
    })
    expect(seen).toEqual([{ mergeParams: true, strict: true }])
  })
})
