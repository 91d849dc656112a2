import type { Express } from 'express'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { configureLogger } from '../../src/index.js'
import { hosts } from '../support/e2e.js'
import { importExample, markedBlock } from '../support/readme-example.js'

// docs/production.md's app runs as written, on Express 4 and 5: its probes answer, a report in
// time is sent, and one past the route's timeout gets the 503 the guide shows.

beforeAll(() => {
  configureLogger({ silent: true })
})

describe.each(hosts)('%s', (host) => {
  const example = () => importExample<{ app: Express }>('production', host)

  it('answers its probes', async () => {
    const { app } = await example()
    expect((await request(app).get('/healthz')).status).toBe(200)
    const ready = await request(app).get('/readyz')
    expect(ready.status).toBe(200)
    expect(ready.body.data).toEqual({ status: 'ok', checks: { db: 'ok' } })
  })

  it('production-timeout: a report past the route timeout is the 503 the guide shows', async () => {
    const { app } = await example()
    expect((await request(app).get('/reports/q3')).body.data).toEqual({ id: 'q3', rows: 42 })
    const late = await request(app).get('/reports/huge')
    expect(late.status).toBe(503)
    expect(late.headers['retry-after']).toBe('5')
    expect(late.body).toEqual(JSON.parse(markedBlock('output', 'production-timeout').code))
  })
})
