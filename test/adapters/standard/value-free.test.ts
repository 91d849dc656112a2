import { type } from 'arktype'
import fc from 'fast-check'
import Joi from 'joi'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { type StandardSchemaV1, standardAdapter } from '../../../src/adapters/standard/index.js'
import { NEUTRAL_MESSAGE, valueFree } from '../../../src/adapters/standard/value-free.js'
import { configureLogger, errorHandler, handle, shapeguard } from '../../../src/index.js'
import { type Express, hosts } from '../../support/e2e.js'

// A bare Standard Schema's messages are cleaned of the value at each issue's path: Joi's
// `with value "…"`, ArkType's `(was "…")`, whatever the value holds.

beforeAll(() => {
  configureLogger({ silent: true })
})

const hostile = {
  secret: 'hunter2-secret',
  meta: `a"b'c\\d/^$.*+?()[]{}|\n\té😀`,
  long: `${'x'.repeat(40)}SECRET${'y'.repeat(2000)}`,
}

const schemas = {
  joi: {
    field: Joi.object({ team: Joi.string().pattern(/^[a-z]+$/), n: Joi.number().max(3) }).prefs({
      abortEarly: false,
    }),
    top: Joi.string().pattern(/^[a-z]+$/),
    topNumber: Joi.number().valid(1, 2),
  },
  arktype: {
    field: type({ 'team?': /^[a-z]+$/, 'n?': 'number<3' }),
    top: type(/^[a-z]+$/),
    topNumber: type('1|2'),
  },
}

const issues = (schema: StandardSchemaV1, input: unknown) => {
  const r = standardAdapter(schema).parse(input, true)
  if (r instanceof Promise || r.success) throw new Error('expected issues')
  return r.issues
}

describe('messages without the value (parse)', () => {
  it("empties Joi's `with value` and keeps the pattern", () => {
    expect(issues(schemas.joi.field, { team: hostile.secret })).toEqual([
      {
        path: ['team'],
        message: '"team" with value "…" fails to match the required pattern: /^[a-z]+$/',
        code: 'invalid',
      },
    ])
    expect(issues(schemas.joi.top, hostile.meta)[0]?.message).toBe(
      '"value" with value "…" fails to match the required pattern: /^[a-z]+$/',
    )
  })

  it("empties ArkType's `(was …)` for strings and numbers, and keeps the bound", () => {
    expect(issues(schemas.arktype.field, { team: hostile.secret, n: 12345 })).toEqual([
      { path: ['n'], message: 'n must be less than 3 (was …)', code: 'max' },
      { path: ['team'], message: 'team must be matched by ^[a-z]+$ (was "…")', code: 'pattern' },
    ])
    expect(issues(schemas.arktype.top, hostile.long)[0]?.message).toBe(
      'must be matched by ^[a-z]+$ (was "…")',
    )
    expect(issues(schemas.arktype.topNumber, 7)[0]?.message).toBe('must be 1 or 2 (was …)')
    // A bound equal to the value stays: numbers go only where quoted.
    expect(issues(type({ n: 'number<5' }), { n: 5 })[0]?.message).toBe(
      'n must be less than 5 (was …)',
    )
  })

  it('keeps a label equal to the value, and messages that quote nothing', () => {
    const digits = Joi.object({ team: Joi.string().pattern(/^[0-9]+$/) })
    expect(issues(digits, { team: 'team' })[0]?.message).toBe(
      '"team" with value "…" fails to match the required pattern: /^[0-9]+$/',
    )
    expect(issues(type({ team: /^[0-9]+$/ }), { team: 'team' })[0]?.message).toBe(
      'team must be matched by ^[0-9]+$ (was "…")',
    )
    expect(issues(type({ name: 'string>1' }), { name: 'A' })[0]?.message).toBe(
      'name must be at least length 2 (was 1)',
    )
    expect(issues(schemas.joi.field, { n: 9 })[0]?.message).toBe(
      '"n" must be less than or equal to 3',
    )
  })

  it('removes a value Joi converted first, a JSON excerpt, a value in a custom message, an object dump', () => {
    const trimmed = Joi.string()
      .trim()
      .pattern(/^[a-z]+$/)
    expect(issues(trimmed, '  hunter2-secret  ')[0]?.message).toBe(
      '"value" with value "…" fails to match the required pattern: /^[a-z]+$/',
    )
    const json = type({ j: 'string.json.parse' })
    const m = issues(json, { j: 'hunter2-secret-and-more' })[0]?.message ?? ''
    expect(m).not.toContain('hunter2')
    expect(m).toContain('must be a JSON string')
    const custom = Joi.string().custom(() => {
      throw new Error('bad hunter2-secret')
    })
    expect(issues(custom, 'hunter2-secret')[0]?.message).toBe(
      '"value" failed custom validation because bad …',
    )
    const nice = type({ n: 'string' }).narrow((_, ctx) => ctx.mustBe('nice'))
    expect(issues(nice, { n: 'hunter2-secret' })[0]?.message).toBe('must be nice (was {"n":"…"})')
  })

  it('empties the quoted place when the path does not lead to the value (a renamed key, a parsed string)', () => {
    const renamed = Joi.object({ b: Joi.string().pattern(/^[a-z]+$/) }).rename('a', 'b')
    expect(issues(renamed, { a: 'Hunter2-secret' })[0]?.message).toBe(
      '"b" with value "…" fails to match the required pattern: /^[a-z]+$/',
    )
    const parsed = type({ payload: type('string.json.parse').to({ a: /^[a-z]+$/ }) })
    const m = issues(parsed, { payload: '{"a":"Hunter2-secret"}' })[0]?.message ?? ''
    expect(m).not.toContain('Hunter2')
    expect(m).toContain('^[a-z]+$')
    const n = type({ payload: type('string.json.parse').to({ a: 'number<3' }) })
    const mn = issues(n, { payload: '{"a":123456}' })[0]?.message ?? ''
    expect(mn).not.toContain('123456')
    expect(mn).toContain('less than 3')
  })

  it('says Invalid value when the value overlaps itself, or an object is too large to search', () => {
    // `xx…xx` about the value `x…x`: replacing the one occurrence makes another.
    expect(valueFree('bad xx…xx here', { v: 'x…x' }, ['v'], ['v'])).toBe(NEUTRAL_MESSAGE)
    const big = { n: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i])) }
    expect(valueFree('whatever', big, ['n'], ['n'])).toBe(NEUTRAL_MESSAGE)
  })

  it('runs no getter and no Proxy trap on the way to the value, and never throws', () => {
    let ran = 0
    const withGetter = Object.defineProperty({}, 'team', {
      enumerable: true,
      get: () => {
        ran++
        return 'hunter2-secret'
      },
    })
    const trap = () => {
      ran++
      throw new Error('trap')
    }
    const proxy = new Proxy(
      {},
      { get: trap, getOwnPropertyDescriptor: trap, ownKeys: trap, has: trap },
    )
    const says = (input: unknown, path: unknown[]) =>
      valueFree('msg "hunter2-secret"', input, path, path as string[])
    expect(says(withGetter, ['team'])).toBe('msg "hunter2-secret"')
    expect(says({ a: proxy }, ['a', 'team'])).toBe('msg "hunter2-secret"')
    expect(says({ a: proxy }, ['a'])).toBe('msg "hunter2-secret"')
    expect(says(proxy, [])).toBe('msg "hunter2-secret"')
    expect(says('x', ['a', 'b'])).toBe('msg "hunter2-secret"')
    expect(says({ a: null }, ['a', 'b'])).toBe('msg "hunter2-secret"')
    expect(says({ a: 1 }, [{ toString: trap }])).toBe('msg "hunter2-secret"')
    expect(ran).toBe(0)
    // Through the adapter: a schema whose issue points through the getter.
    const schema: StandardSchemaV1<unknown, unknown> = {
      '~standard': {
        version: 1,
        vendor: 'hand-written',
        validate: () => ({ issues: [{ message: 'bad "x"', path: ['team', 'deep'] }] }),
      },
    }
    expect(issues(schema, withGetter)[0]?.message).toBe('bad "x"')
    expect(issues(schema, proxy)[0]?.message).toBe('bad "x"')
    expect(ran).toBe(0)
  })

  it('leaves a message written by a vendor hook alone (valibot writes its own)', () => {
    const schema: StandardSchemaV1<unknown, unknown> = {
      '~standard': {
        version: 1,
        vendor: 'hand-written',
        validate: () => ({ issues: [{ message: 'was "hunter2-secret"', path: [] }] }),
      },
    }
    const hooked = standardAdapter(schema, { message: () => 'own' }).parse('hunter2-secret')
    expect(hooked).toMatchObject({ issues: [{ message: 'own' }] })
  })
})

// The 422 through Express, the bare schema as handle()'s body.
function appFor(express: Express, schema: StandardSchemaV1) {
  const app = express()
  app.use(shapeguard())
  // Not strict: a bare JSON string or number is a body too.
  app.use(express.json({ strict: false }))
  app.post(
    '/x',
    ...handle({ body: schema, allErrors: true }, (_req, res) => res.ok({ data: null })),
  )
  app.use(errorHandler())
  return app
}

// What a 422 holds that is not a message: a value inside it proves nothing.
const skeleton =
  '{"success":false,"message":"Validation failed","error":{"code":"VALIDATION_ERROR","message":"Validation failed","details":[{"field":"team","message":""}]}}"value"'

describe.each(hosts)('%s: a bare Standard Schema’s 422', (_, express) => {
  const apps = Object.fromEntries(
    Object.entries(schemas).map(([name, s]) => [
      name,
      {
        field: appFor(express, s.field as never),
        top: appFor(express, s.top as never),
        topNumber: appFor(express, s.topNumber as never),
      },
    ]),
  )

  describe.each(Object.keys(schemas))('%s', (name) => {
    const app = apps[name]!
    it.each(Object.entries(hostile))(
      'holds no %s value, in a field or as the body',
      async (_, value) => {
        for (const [target, body] of [
          [app.field, { team: value }],
          [app.top, value],
        ] as const) {
          const res = await request(target)
            .post('/x')
            .set('content-type', 'application/json')
            .send(JSON.stringify(body))
          expect(res.status).toBe(422)
          const text = JSON.stringify(res.body)
          expect(text).not.toContain(JSON.stringify(value).slice(1, -1))
          for (const d of [res.body.error.details].flat()) expect(d.message).not.toContain(value)
          expect(text).toMatch(/\^\[a-z\]\+\$/)
        }
      },
    )

    it('holds no number value, in a field or as the body, and says the expectation', async () => {
      const res = await request(app.field).post('/x').send({ n: 98765 })
      expect(res.status).toBe(422)
      expect(JSON.stringify(res.body)).not.toContain('98765')
      expect([res.body.error.details].flat()[0].message).toMatch(/less than (or equal to )?3/)
      const top = await request(app.topNumber)
        .post('/x')
        .set('content-type', 'application/json')
        .send('98765')
      expect(top.status).toBe(422)
      expect(JSON.stringify(top.body)).not.toContain('98765')
      expect([top.body.error.details].flat()[0].message).toMatch(/1.*2/)
    })

    it('never holds a string value of 3 or more characters, never fails (property)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string({ maxLength: 2 }),
            fc.string({ unit: 'grapheme', maxLength: 12 }),
            fc.stringMatching(/^["'\\()a-z…]{0,8}$/),
            fc.string({ minLength: 3, maxLength: 40 }),
          ),
          async (value) => {
            const res = await request(app.field).post('/x').send({ team: value })
            expect([200, 201, 422]).toContain(res.status)
            if (res.status !== 422 || value.length < 3) return
            const text = JSON.stringify(res.body)
            const escaped = JSON.stringify(value).slice(1, -1)
            if (skeleton.includes(escaped)) return
            expect(text).not.toContain(escaped)
          },
        ),
        { numRuns: 150 },
      )
    })
  })
})
