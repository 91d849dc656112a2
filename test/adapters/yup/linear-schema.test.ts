import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as y from 'yup'
import { linearSchema } from '../../../src/adapters/yup/linear-schema.js'
import { urlLike } from './url-like.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 3000)
const attack = `//T.${'0.'.repeat(5000)}\x00`

function outcome(schema: y.AnySchema, value: unknown) {
  try {
    return { ok: schema.validateSync(value, { abortEarly: false }) }
  } catch (e) {
    const err = e as y.ValidationError
    return { errors: err.errors, inner: err.inner.map((i) => [i.path, i.type, i.message]) }
  }
}

// yup's url pattern, shared by every url() test: each run of it is counted instead of run.
const yupUrl = (
  y.string().url().tests.at(-1) as unknown as { OPTIONS: { params: { regex: RegExp } } }
).OPTIONS.params.regex

function yupUrlRuns(run: () => void): number {
  let runs = 0
  Object.defineProperty(yupUrl, 'exec', {
    configurable: true,
    value: () => {
      runs++
      return null
    },
  })
  try {
    run()
  } finally {
    Reflect.deleteProperty(yupUrl, 'exec')
  }
  return runs
}

const Page = y.object({
  site: y.string().url().required(),
  // biome-ignore lint/suspicious/noTemplateCurlyInString: yup's message template
  links: y.array(y.string().url('bad link ${path}')).max(3),
  pair: y.tuple([y.string().url(), y.string().email()]),
  kind: y.string().oneOf(['home', 'shop']),
  // biome-ignore lint/suspicious/noThenProperty: yup's when() options
  shop: y.string().when('kind', { is: 'shop', then: (s) => s.url().required() }),
  any: y.lazy(() => y.string().url().min(3)),
})

describe('linearSchema', () => {
  it(
    'answers as yup does: same values, errors, paths and messages',
    () => {
      const linear = linearSchema(Page)
      const value = fc.record({
        site: urlLike,
        links: fc.array(urlLike, { maxLength: 4 }),
        pair: fc.tuple(urlLike, fc.constantFrom('a@b.io', 'nope')),
        kind: fc.constantFrom('home', 'shop', 'x'),
        shop: fc.option(urlLike, { nil: undefined }),
        any: urlLike,
      })
      fc.assert(
        fc.property(value, (v) => {
          expect(outcome(linear, v)).toEqual(outcome(Page, v))
        }),
        { numRuns: RUNS },
      )
    },
    Math.max(60_000, RUNS * 10),
  )

  it('runs no backtracking pattern at any depth, in when() branches or lazy() results', () => {
    const linear = linearSchema(Page)
    const base = { site: 'https://a.io', links: [], pair: ['//a.b', 'a@b.io'], kind: 'home' }
    for (const v of [
      { ...base, site: attack },
      { ...base, links: [attack] },
      { ...base, pair: [attack, 'a@b.io'] },
      { ...base, kind: 'shop', shop: attack },
      { ...base, any: attack },
    ]) {
      expect(yupUrlRuns(() => expect(outcome(linear, v).errors).toHaveLength(1))).toBe(0)
      // yup's own schema runs it on the same value: the count can fail.
      expect(yupUrlRuns(() => outcome(Page, v))).toBeGreaterThan(0)
    }
  })

  it('leaves the given schema as it was, and returns a schema that needs nothing as is', () => {
    const site = Page.fields.site as y.StringSchema
    const before = site.tests.map((t) => t.OPTIONS!.test)
    linearSchema(Page)
    expect(site.tests.map((t) => t.OPTIONS!.test)).toEqual(before)
    const plain = y.array(y.tuple([y.string().email(), y.number()]))
    expect(linearSchema(plain)).toBe(plain)
    expect(linearSchema(Page)).toBe(linearSchema(Page))
  })

  it('gives every object its fields with no prototype, the given schema keeping its own', () => {
    const Named = y.object({ name: y.string(), inner: y.object({ n: y.number() }) })
    const safe = linearSchema(Named)
    const inner = safe.fields.inner as y.AnyObjectSchema
    expect([Object.getPrototypeOf(safe.fields), Object.getPrototypeOf(inner.fields)]).toEqual([
      null,
      null,
    ])
    expect(Object.getPrototypeOf(Named.fields)).toBe(Object.prototype)
    const input = { name: 'x', toString: 1, inner: { n: 1, valueOf: 2 } }
    expect(safe.validateSync(input, { stripUnknown: true })).toEqual({ name: 'x', inner: { n: 1 } })
  })

  it('keeps describe() as yup gives it', () => {
    expect(linearSchema(Page).describe()).toEqual(Page.describe())
  })
})
