import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import * as y from 'yup'
import { yupAdapter } from '../../src/adapters/yup/index.js'
import { configureLogger, errorHandler, shapeguard, validate } from '../../src/index.js'
import { captureLogger, hosts } from '../support/e2e.js'
import { yupIsStandard } from '../support/peer-features.js'

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

// yup looks a key up among an object's fields by name: one named like an Object.prototype member
// found the inherited function and yup threw (422 for a bare body schema, 500 for response data).
// Such a key is unknown like any other: removed, as yupAdapter's compiled path, zod and valibot do.
describe.each(hosts)('keys named like Object.prototype members on %s', (_, express) => {
  const named = y.object({ name: y.string().required() })
  const values = ['1', '{}', '"a"', '[]', 'null', '{"a":1}']
  // JSON text, so that `__proto__` is an own key as a JSON parser makes it.
  const withKey = (key: string, i: number) => `{"name":"x",${JSON.stringify(key)}:${values[i % 6]}}`
  for (const [label, schema] of [
    ['yupAdapter', yupAdapter(named)],
    ...(yupIsStandard ? [['a bare yup schema', named] as const] : []),
  ] as const) {
    it(`removes each from a body and from response data through ${label}`, async () => {
      const logger = captureLogger()
      const app = express()
      app.use(express.json())
      app.use(shapeguard({ debug: false, logger: { instance: logger } }))
      app.post('/', validate({ body: schema }), (req, res) => res.status(201).json(req.body))
      app.get('/:i', validate({ response: schema }), (req, res) => {
        const i = Number(req.params.i)
        res.ok({ data: JSON.parse(withKey(Object.getOwnPropertyNames(Object.prototype)[i]!, i)) })
      })
      app.use(errorHandler())
      for (const [i, key] of Object.getOwnPropertyNames(Object.prototype).entries()) {
        const body = await request(app).post('/').type('json').send(withKey(key, i))
        // A `__proto__` key in a body is refused before any schema (PROTO_POLLUTION).
        if (key === '__proto__') expect(body.status, key).toBe(400)
        else expect([body.status, body.text], key).toEqual([201, '{"name":"x"}'])
        const sent = await request(app).get(`/${i}`)
        expect([sent.status, sent.body.data], key).toEqual([200, { name: 'x' }])
        expect(Object.keys(sent.body.data), key).toEqual(['name'])
      }
      expect(logger.records.filter((r) => r.level === 'error')).toEqual([])
    })
  }
})
