import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import * as y from 'yup'
import { yupAdapter } from '../../src/adapters/yup/index.js'
import { configureLogger, errorHandler, shapeguard, validate } from '../../src/index.js'
import { yupIsStandard } from '../support/peer-features.js'
import { captureLogger, hosts } from './support.js'

// yup's casts call methods of the value (`value.toString()`, `val.trim()`): a client that sends an
// object where text is expected must get a 422, never a 500, whether the schema is wrapped or bare.
beforeAll(() => {
  configureLogger({ silent: true })
})

const schema = y.object({
  name: y.string(),
  tag: y.string().trim().uppercase(),
  age: y.number(),
  born: y.date(),
  flags: y.array(y.string()),
})

const hostile: object[] = [
  { name: { toString: 1 } },
  { name: { toString: 'x', valueOf: 'y' } },
  { tag: {} },
  { tag: [1, 2] },
  { age: { valueOf: 1 } },
  { born: { toString: 1 } },
  { flags: [{ toString: 1 }] },
]

describe.each(hosts)('inputs yup cannot cast on %s', (_, express) => {
  for (const [label, body] of [
    ['yupAdapter', yupAdapter(schema)],
    // A bare yup schema is a Standard Schema object from yup 1.7 (test/support/peer-features.ts).
    ...(yupIsStandard ? [['a bare yup schema', schema] as const] : []),
  ] as const) {
    it(`answers 422 for each through ${label}, with no error-level log`, async () => {
      const logger = captureLogger()
      const app = express()
      app.use(express.json())
      app.use(shapeguard({ debug: false, logger: { instance: logger } }))
      app.post('/', validate({ body }), (_req, res) => res.json({ ok: true }))
      app.use(errorHandler())
      for (const input of hostile) {
        const res = await request(app).post('/').send(input)
        expect(res.status, JSON.stringify(input)).toBe(422)
        expect(res.body.error.code).toBe('VALIDATION_ERROR')
      }
      expect(logger.records.filter((r) => r.level === 'error')).toEqual([])
    })
  }

  it('keeps a TypeError thrown by your own test() a programmer error (500)', async () => {
    const buggy = y.object({
      name: y.string().test('bug', 'never', (v) => (v as unknown as { x: { y: 1 } }).x.y === 1),
    })
    const app = express()
    app.use(express.json())
    app.use(shapeguard({ debug: false, logger: { instance: captureLogger() } }))
    app.post('/', validate({ body: yupAdapter(buggy) }), (_req, res) => res.json({ ok: true }))
    app.use(errorHandler())
    const res = await request(app).post('/').send({ name: 'Ada' })
    expect(res.status).toBe(500)
  })
})
