import { describe, expect, it } from 'vitest'
import * as y from 'yup'
import { splitPath } from '../../../src/adapters/yup/parse.js'
import { yupToIR } from '../../../src/adapters/yup/to-ir.js'
import { yupAdapter } from '../../../src/adapters/yup/yup-adapter.js'
import { compile, kAdapter, toJsonSchema } from '../../../src/engine/index.js'
import type { IRObject } from '../../../src/engine/ir/types.js'
import { yupHasExact } from '../../support/peer-features.js'

const ir = (s: y.AnySchema) => yupToIR(s as never)

function sync<T>(r: T | Promise<T>): T {
  if (r instanceof Promise) throw new Error('unexpected async result')
  return r
}

describe('yupToIR', () => {
  it('maps leaves with yup’s own cast; numbers are stricter until ±Infinity is ruled out', () => {
    // Strings: the compiled path takes strings only and leaves yup's cast of other values to yup.
    expect(ir(y.string().required())).toMatchObject({
      kind: 'string',
      lengthUnit: 'utf16',
      coerce: false,
      safety: 'stricter',
    })
    expect(typeof (ir(y.number().required()) as { coerce: unknown }).coerce).toBe('function')
    expect(ir(y.number().required())).toMatchObject({ kind: 'number', safety: 'stricter' })
    expect(ir(y.number().required().integer())).toMatchObject({ kind: 'number', safety: 'exact' })
    expect(ir(y.string().required().strict())).toMatchObject({
      kind: 'string',
      coerce: false,
      safety: 'exact',
    })
  })

  it('describes presence: optional by default, required, defaulted', () => {
    const n = ir(
      y.object({ a: y.string(), b: y.string().required(), c: y.string().default('x') }),
    ) as {
      inner: IRObject
    }
    expect(n.inner.properties.map((p) => [p.key, p.presence])).toEqual([
      ['c', 'defaulted'],
      ['b', 'required'],
      ['a', 'optional'],
    ])
    expect(n.inner).toMatchObject({ reuseInput: 'unchanged', unknownKeys: 'catchall' })
  })

  it('honours noUnknown / stripUnknown (cast strips) and exact (rejects)', () => {
    const kind = (s: y.AnySchema) => ((ir(s) as { inner: IRObject }).inner ?? ir(s)).unknownKeys
    const shape = { a: y.string() }
    expect(kind(y.object(shape).noUnknown())).toBe('strip')
    expect(kind(y.object(shape).noUnknown().strict())).toBe('strict')
    // yup's stripUnknown option strips every object a cast reaches, exact() or not.
    const stripped = (s: y.AnySchema) => (yupToIR(s as never, true) as { inner: IRObject }).inner
    expect(stripped(y.object(shape)).unknownKeys).toBe('strip')
    expect(stripped(y.object(shape).strict()).unknownKeys).toBe('catchall')
    // exact() and stripUnknown() are yup 1.5's (test/support/peer-features.ts).
    if (!yupHasExact) return
    expect(kind(y.object(shape).stripUnknown())).toBe('strip')
    expect(kind(y.object(shape).exact())).toBe('strict')
    expect(stripped(y.object(shape).exact()).unknownKeys).toBe('strip')
  })

  it('leaves custom tests, transforms, when(), dates and lazy schemas to yup', () => {
    const native = (s: y.AnySchema) => JSON.stringify(ir(s)).includes('"kind":"native"')
    expect(native(y.string().test('x', 'x', () => true))).toBe(true)
    expect(native(y.string().transform((s) => s))).toBe(true)
    expect(native(y.number().round())).toBe(true)
    expect(native(y.date())).toBe(true)
    expect(
      native(
        y.object({
          a: y.string(),
          b: y.string().when('a', ([a], s) => (a === 'x' ? s.required() : s)),
        }),
      ),
    ).toBe(true)
    expect(native(y.object({ a: y.lazy(() => y.string()) }))).toBe(true)
  })
})

describe('yupAdapter', () => {
  const User = y.object({
    name: y.string().trim().required().min(2),
    email: y.string().required().email(),
    age: y.number().integer().min(0),
    role: y.string().oneOf(['admin', 'user']).default('user'),
  })

  it('is branded and cached per schema', () => {
    const a = yupAdapter(User)
    expect(a[kAdapter]).toBe(true)
    expect(a.library).toBe('yup')
    expect(yupAdapter(User)).toBe(a)
    expect(() => yupAdapter({} as never)).toThrow(/yup 1 schema/)
  })

  it('accepts on the compiled path with yup’s exact output (casts, defaults, key order)', () => {
    const c = compile(yupAdapter(User))
    expect(c.compiled).toBe(true)
    const input = { name: ' Ada ', email: 'ada@example.com', age: '36', extra: 1 }
    const want = User.validateSync(input, { stripUnknown: true })
    expect(want).not.toHaveProperty('extra')
    const got = sync(c.validate(input, false))
    expect(got).toEqual({ success: true, data: want })
    if (got.success) expect(Object.keys(got.data as object)).toEqual(Object.keys(want))
  })

  it('returns the very input object when yup’s cast changes nothing', () => {
    const schema = y.object({ a: y.string(), b: y.number() })
    const input = { b: 1, a: 'x' }
    const got = sync(compile(yupAdapter(schema)).validate(input, false))
    expect(got.success && got.data).toBe(input)
    // Unknown keys kept (stripUnknown: false) change nothing either.
    const loose = { b: 1, x: true, a: 'x' }
    const kept = sync(compile(yupAdapter(schema, { stripUnknown: false })).validate(loose, false))
    expect(kept.success && kept.data).toBe(loose)
  })

  it('removes unknown keys at every depth by default, as yup’s stripUnknown: true does', () => {
    const Account = y.object({
      id: y.number().required(),
      profile: y.object({ name: y.string() }),
      sessions: y.array(y.object({ device: y.string(), owner: y.object({ id: y.number() }) })),
    })
    const input = {
      id: 1,
      passwordHash: 'h4sh',
      profile: { name: 'Ada', ssn: '078-05-1120' },
      sessions: [{ device: 'phone', token: 't0k', owner: { id: 2, apiKey: 'k3y' } }],
    }
    const c = compile(yupAdapter(Account))
    expect(c.compiled).toBe(true)
    const want = {
      id: 1,
      profile: { name: 'Ada' },
      sessions: [{ device: 'phone', owner: { id: 2 } }],
    }
    expect(sync(c.validate(input, false))).toEqual({ success: true, data: want })
    expect(Account.validateSync(input, { stripUnknown: true })).toEqual(want)
    // The native path (a rejection decided by yup) strips too.
    expect(
      yupAdapter(Account).parse({ ...input, sessions: [...input.sessions, 'x'] }, true),
    ).toMatchObject({
      success: false,
    })
    const natively = yupAdapter(
      y.object({ a: y.string().test('t', 'no', () => true), deep: y.object({ b: y.string() }) }),
    )
    expect(natively.parse({ a: 'x', z: 1, deep: { b: 'y', z: 2 } })).toEqual({
      success: true,
      data: { a: 'x', deep: { b: 'y' } },
    })
  })

  it('keeps unknown keys with stripUnknown: false, as yup does by default', () => {
    const schema = y.object({ a: y.object({ b: y.string() }) })
    const keep = yupAdapter(schema, { stripUnknown: false })
    expect(keep).not.toBe(yupAdapter(schema))
    expect(yupAdapter(schema, { stripUnknown: false })).toBe(keep)
    const input = { a: { b: 'x', c: 1 }, d: 2 }
    expect(sync(compile(keep).validate(input, false))).toEqual({ success: true, data: input })
    expect(sync(compile(yupAdapter(schema)).validate(input, false))).toEqual({
      success: true,
      data: { a: { b: 'x' } },
    })
    // noUnknown() then strips as yup defines it, and rejects in strict mode, in both settings.
    for (const options of [{}, { stripUnknown: false }]) {
      const loose = yupAdapter(schema.noUnknown(), options)
      expect(sync(compile(loose).validate({ a: { b: 'x' }, d: 2 }, false))).toEqual({
        success: true,
        data: { a: { b: 'x' } },
      })
      const strict = yupAdapter(schema.noUnknown().strict(), options)
      expect(sync(compile(strict).validate({ a: { b: 'x' }, d: 2 }, false))).toMatchObject({
        success: false,
        issues: [{ code: 'noUnknown' }],
      })
    }
    expect(() => yupAdapter(schema, { stripUnknown: 'no' as never })).toThrow(/stripUnknown/)
  })

  it('returns the very input array when its string items need no cast', () => {
    const c = compile(yupAdapter(y.object({ tags: y.array(y.string().required()) })))
    const input = { tags: ['a', 'b'] }
    const got = sync(c.validate(input, false))
    expect(got.success && got.data).toBe(input)
    // A hole is not a string: the checks refuse it and yup decides.
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    const holey = { tags: ['a', , 'b'] }
    const native = yupAdapter(y.object({ tags: y.array(y.string().required()) })).parse(
      holey,
      false,
    )
    expect(sync(c.validate(holey, false))).toEqual(native)
    expect(native).toMatchObject({ success: false })
  })

  it('casts a number given for a string as yup does, through yup', () => {
    const schema = y.object({ zip: y.string().required().length(5), tags: y.array(y.string()) })
    const input = { zip: 12345, tags: [1, 'b', true] }
    expect(sync(compile(yupAdapter(schema)).validate(input, false))).toEqual({
      success: true,
      data: schema.validateSync(input),
    })
    expect(schema.validateSync(input)).toEqual({ zip: '12345', tags: ['1', 'b', 'true'] })
  })

  it('rejects with yup’s errors: its first (abortEarly) or all of them', () => {
    const c = compile(yupAdapter(User))
    const bad = { name: 'A', email: 'x', role: 'root' }
    const one = sync(c.validate(bad, false))
    expect(one).toMatchObject({ success: false })
    if (!one.success) expect(one.issues).toHaveLength(1)
    expect(c.validate(bad, true)).toEqual({
      success: false,
      issues: [
        { path: ['name'], message: 'name must be at least 2 characters', code: 'min' },
        { path: ['email'], message: 'email must be a valid email', code: 'email' },
        {
          path: ['role'],
          message: 'role must be one of the following values: admin, user',
          code: 'oneOf',
        },
      ],
    })
  })

  it('runs a schema with an async test through yup’s validate', async () => {
    const a = yupAdapter(y.object({ n: y.number().test('slow', 'no', async (n) => n !== 1) }))
    expect(a.async).toBe(false)
    await expect(a.parse({ n: 2 })).resolves.toEqual({ success: true, data: { n: 2 } })
    await expect(a.parse({ n: 1 })).resolves.toMatchObject({
      success: false,
      issues: [{ path: ['n'], message: 'no' }],
    })
  })

  it('writes OpenAPI-ready JSON Schema', () => {
    expect(toJsonSchema(yupAdapter(User), { io: 'input' })).toMatchObject({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 2 },
        email: { type: 'string', format: 'email' },
        age: { type: 'integer', minimum: 0 },
        role: { enum: ['admin', 'user'], default: 'user' },
      },
      required: ['email', 'name'],
    })
  })
})

describe('splitPath', () => {
  it('reads yup’s paths into keys and indexes', () => {
    expect(splitPath(undefined)).toEqual([])
    expect(splitPath('a.b[0].c')).toEqual(['a', 'b', 0, 'c'])
    expect(splitPath('[2]["x.y"]')).toEqual([2, 'x.y'])
  })
})
