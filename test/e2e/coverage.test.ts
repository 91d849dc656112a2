import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configureLogger } from '../../src/index.js'
import { coverage as slot } from '../../src/runtime/core/coverage-probe.js'
import {
  belowThresholds,
  coverageTable,
  readCoverage,
  recordCoverage,
  uncovered,
} from '../../src/testing/index.js'
import { hosts } from '../support/e2e.js'
import { shopApp } from './fixtures/coverage-app.js'

beforeAll(() => configureLogger({ silent: true }))
afterAll(() => configureLogger({ silent: true }))

const secret = '4111222233334444'
const card = { type: 'card', number: secret }

/** The known test set: what a team's supertest file for the shop would send. */
async function shopTests(app: ReturnType<typeof shopApp>): Promise<void> {
  await request(app).post('/orders').send({ item: 'hat', size: 's', payment: card }).expect(201)
  await request(app)
    .post('/orders')
    .send({ item: 'hat', size: 'm', gift: true, payment: card })
    .expect(201)
  await request(app).post('/orders').send({ item: 'gone', size: 'l', payment: card }).expect(409)
  await request(app).post('/orders').send({ item: '', payment: card }).expect(422)
  await request(app).get('/orders/o1?view=full').expect(200)
  await request(app).get('/orders/none').expect(404)
}

const table = `route               requests  statuses  codes  enums  branches  optionals
POST /orders               4       3/7    1/2    4/6       1/2        2/2
GET /orders/:id            2       2/5    1/1    2/5         -        1/2
DELETE /orders/:id         0       0/4      -      -         -          -
total (2/3 routes)         6      5/16    2/3   6/11       1/2        3/4
percent                66.6%     31.2%  66.6%  54.5%     50.0%      75.0%
overall: 48.7% (19 of 39: routes, statuses, codes, enums, branches, optionals)

not covered:
  POST /orders:
    status 400
    status 413
    status 415
    status 500
    code CONFLICT
    response.status = "paid"
    response.status = "shipped"
    body.payment | invoice
  GET /orders/:id:
    status 400
    status 422
    status 500
    query.view = "short"
    response.status = "open"
    response.status = "shipped"
    response.note?
  DELETE /orders/:id: no request
    status 200
    status 400
    status 422
    status 500
`

describe.each(hosts)('recordCoverage on %s', (_, express) => {
  it('counts exactly what a supertest suite exercised, route by route', async () => {
    const app = shopApp(express)
    const coverage = recordCoverage(app)
    try {
      await shopTests(app)
    } finally {
      coverage.stop()
    }
    const report = coverage.report()
    expect(coverageTable(report)).toBe(table)
    const post = report.routes[0]!
    expect(post.statuses).toEqual({
      declared: [201, 400, 409, 413, 415, 422, 500],
      covered: [201, 409, 422],
      missing: [400, 413, 415, 500],
      others: [],
    })
    // The registry code it answered beyond its `errors`.
    expect(post.codes.others).toEqual(['VALIDATION_ERROR'])
    expect(report.unknown).toEqual([])
    expect(belowThresholds(report, { routes: 60, statuses: 80, overall: 40 })).toEqual([
      'statuses 31.2% < 80%',
    ])
    // What to fuzz next: the routes with anything uncovered.
    expect([...new Set(uncovered(report).map((u) => u.route))]).toEqual([
      'POST /orders',
      'GET /orders/:id',
      'DELETE /orders/:id',
    ])
  })

  it('records nothing once stopped, and answers byte for byte as without recording', async () => {
    const app = shopApp(express)
    const body = { item: 'hat', size: 'm', gift: true, payment: card }
    const plain = await request(app).post('/orders').send(body)
    const coverage = recordCoverage(app)
    const recorded = await request(app).post('/orders').send(body)
    coverage.stop()
    expect(slot.probe).toBeUndefined()
    await request(app).post('/orders').send(body)
    expect(recorded.text.replace(/"requestId":"[^"]*"/, '')).toBe(
      plain.text.replace(/"requestId":"[^"]*"/, ''),
    )
    expect(recorded.text).not.toContain(secret)
    expect(coverage.records.routes['POST /orders']?.requests).toBe(1)
  })

  it('writes records that hold no request value to a folder, read back whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-coverage-'))
    try {
      const app = shopApp(express)
      const coverage = recordCoverage(app, { dir })
      try {
        await shopTests(app)
        await request(app)
          .post('/orders')
          .send({ item: secret, size: 'm', payment: { type: 'invoice', email: `${secret}@x.io` } })
          .expect(201)
        await request(app).get(`/orders/${secret}?view=short`).expect(200)
      } finally {
        coverage.stop()
      }
      const files = readdirSync(dir)
      expect(files).toHaveLength(1)
      const text = readFileSync(join(dir, files[0]!), 'utf8')
      expect(text).not.toContain(secret)
      expect(text).not.toContain('hat')
      expect(readCoverage(dir)).toEqual(JSON.parse(JSON.stringify(coverage.records)))
      expect(coverage.records.routes['POST /orders']?.items).toMatchObject({
        'body.payment | invoice': 1,
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
