import pino from 'pino'
import request from 'supertest'
import * as v from 'valibot'
import { afterEach, describe, expect, it } from 'vitest'
import * as y from 'yup'
import * as z from 'zod'
import { valibotAdapter } from '../../src/adapters/valibot/index.js'
import { yupAdapter } from '../../src/adapters/yup/index.js'
import { errorHandler, handle, type StandardSchemaV1, shapeguard } from '../../src/index.js'
import { resetLogger } from '../../src/runtime/logging/logger.js'
import { type Express, hosts } from '../support/e2e.js'
import { capture } from '../support/log-capture.js'

afterEach(() => {
  resetLogger()
})

// The value that must never be echoed: not in an answer, not in any log line.
const SECRET = 'S3CRET-ssn-078051120'

// A hand-written Standard Schema whose messages quote the value, as some libraries' do.
const quoting: StandardSchemaV1<{ n: number }> = {
  '~standard': {
    version: 1,
    vendor: 'quoting',
    validate: (value) => {
      const n = (value as { n?: unknown } | null)?.n
      return typeof n === 'number'
        ? { value: { n } }
        : { issues: [{ message: `n must be a number, got ${JSON.stringify(n)}`, path: ['n'] }] }
    },
  },
}

const responseSchemas = {
  zod: z.object({ n: z.number() }),
  yupAdapter: yupAdapter(y.object({ n: y.number().required() })),
  valibotAdapter: valibotAdapter(v.object({ n: v.number() })),
  'bare-valibot': v.object({ n: v.number() }),
  standard: quoting,
}

const bodySchemas = {
  zod: z.object({ n: z.number(), email: z.email(), age: z.number().min(18) }),
  yupAdapter: yupAdapter(
    y.object({ n: y.number().required(), email: y.string().email(), age: y.number().min(18) }),
  ),
  valibotAdapter: valibotAdapter(
    v.object({
      n: v.number(),
      email: v.pipe(v.string(), v.email()),
      age: v.pipe(v.number(), v.minValue(18)),
    }),
  ),
  'bare-valibot': v.object({
    n: v.number(),
    email: v.pipe(v.string(), v.email()),
    age: v.pipe(v.number(), v.minValue(18)),
  }),
}

function appWith(express: Express, debug: boolean) {
  const lines = capture()
  const app = express()
  app.use(shapeguard({ debug, logger: { instance: pino({ level: 'debug' }, lines) } }))
  app.use(express.json())
  for (const [name, schema] of Object.entries(responseSchemas)) {
    app.get(
      `/response/${name}`,
      ...handle({ response: schema }, (_q, res) => res.ok({ data: { n: SECRET } as never })),
    )
  }
  for (const [name, schema] of Object.entries(bodySchemas)) {
    app.post(
      `/body/${name}`,
      ...handle({ body: schema, allErrors: true }, (_q, res) => res.ok({ data: null })),
    )
  }
  app.use(errorHandler())
  return { app, lines }
}

describe.each(hosts)('no value in an error answer or a log line on %s', (_, express) => {
  it.each([true, false])('a response failing its schema (debug %s)', async (debug) => {
    const { app, lines } = appWith(express, debug)
    for (const name of Object.keys(responseSchemas)) {
      const res = await request(app).get(`/response/${name}`)
      expect(res.status, name).toBe(500)
      expect(res.text, name).not.toContain(SECRET)
      if (debug)
        expect(res.body.error.message, name).toMatch(/data\.n failed the schema('s `\w+` check)?\)/)
      else expect(res.body.error.message, name).toBe('Something went wrong')
    }
    const logged = lines.lines()
    expect(
      logged.some((l) => l.includes('"level":50')),
      'an error line per failure',
    ).toBe(true)
    for (const line of logged) expect(line).not.toContain(SECRET)
  })

  it.each([true, false])('a 422 from a library’s default messages (debug %s)', async (debug) => {
    const { app, lines } = appWith(express, debug)
    for (const name of Object.keys(bodySchemas)) {
      const res = await request(app)
        .post(`/body/${name}`)
        .send({ n: SECRET, email: SECRET, age: 17.0717 })
      expect(res.status, name).toBe(422)
      expect(res.body.error.details, name).toHaveLength(3)
      expect(res.text, name).not.toContain(SECRET)
      expect(res.text, name).not.toContain('17.0717')
    }
    const logged = lines.lines()
    expect(logged.length).toBeGreaterThan(0)
    for (const line of logged) {
      expect(line).not.toContain(SECRET)
      expect(line).not.toContain('17.0717')
    }
  })
})
