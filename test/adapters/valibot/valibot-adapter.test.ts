import * as v from 'valibot'
import { afterEach, describe, expect, it } from 'vitest'
import { valibotAdapter } from '../../../src/adapters/valibot/index.js'
import { valibotToIR } from '../../../src/adapters/valibot/to-ir.js'
import { compile, kAdapter, toJsonSchema } from '../../../src/engine/index.js'
import type { IRObject, IRString } from '../../../src/engine/ir/types.js'

const kindOf = (s: v.GenericSchema) => {
  const n = valibotToIR(s as never)
  return [n.kind, n.safety]
}

describe('valibotToIR', () => {
  it('maps leaf kinds; number is stricter until a check rules out ±Infinity', () => {
    expect(kindOf(v.string())).toEqual(['string', 'exact'])
    expect(kindOf(v.number())).toEqual(['number', 'stricter'])
    expect(kindOf(v.pipe(v.number(), v.integer()))).toEqual(['number', 'exact'])
    expect(kindOf(v.pipe(v.number(), v.minValue(0), v.maxValue(9)))).toEqual(['number', 'exact'])
    expect(kindOf(v.boolean())).toEqual(['boolean', 'exact'])
    expect(kindOf(v.picklist(['a', 'b']))).toEqual(['enum', 'exact'])
    expect(kindOf(v.literal(true))).toEqual(['literal', 'exact'])
    expect(kindOf(v.date())).toEqual(['date', 'exact'])
    expect(kindOf(v.unknown())).toEqual(['unknown', 'exact'])
  })

  it('keeps string actions in pipe order, counting UTF-16 units, with valibot’s own regexes', () => {
    const email = v.email()
    const n = valibotToIR(v.pipe(v.string(), v.trim(), v.minLength(2), email) as never) as IRString
    expect(n.lengthUnit).toBe('utf16')
    expect(n.checks.map((c) => c.kind)).toEqual(['transform', 'min_length', 'pattern'])
    expect(n.checks[2]).toMatchObject({ pattern: email.requirement, format: 'email' })
  })

  it('sends custom checks, transforms, fallbacks, global regexes and multipleOf to valibot', () => {
    expect(
      kindOf(
        v.pipe(
          v.string(),
          v.check(() => true),
        ),
      )[0],
    ).toBe('native')
    expect(
      kindOf(
        v.pipe(
          v.string(),
          v.transform((s) => s.length),
        ),
      )[0],
    ).toBe('native')
    expect(kindOf(v.fallback(v.string(), 'x'))[0]).toBe('native')
    expect(kindOf(v.pipe(v.string(), v.regex(/a/g)))[0]).toBe('native')
    expect(kindOf(v.pipe(v.number(), v.multipleOf(2)))[0]).toBe('native')
    expect(kindOf(v.exactOptional(v.string()))[0]).toBe('native')
    expect(kindOf(v.objectAsync({}) as never)[0]).toBe('native')
  })

  it('marks objects and records stricter: valibot reads an array by its indexes, the docs show an object', () => {
    const record = v.record(v.string(), v.string())
    expect(v.parse(record, ['x'])).toEqual({ 0: 'x' })
    expect(kindOf(record)).toEqual(['record', 'stricter'])
    expect(kindOf(v.object({}))).toEqual(['object', 'stricter'])
    // A check below the record makes it native, which hides the mark (one class per node): the
    // docs still show the object a client sends, and valibot still takes [[]].
    const tuple = v.tuple([
      v.record(
        v.string(),
        v.pipe(
          v.string(),
          v.check(() => true),
        ),
      ),
    ])
    expect(v.parse(tuple, [[]])).toEqual([{}])
    expect(kindOf(tuple)).toEqual(['tuple', 'native'])
    expect(toJsonSchema(valibotAdapter(tuple), { io: 'input' })).toMatchObject({
      prefixItems: [{ type: 'object' }],
    })
  })

  it('describes object presence and defaults', () => {
    const n = valibotToIR(
      v.object({
        a: v.string(),
        b: v.optional(v.string()),
        c: v.optional(v.string(), 'x'),
        d: v.nullish(v.number(), 1),
        e: v.nullable(v.string(), 'n'),
      }) as never,
    ) as IRObject
    expect(n.properties.map((p) => [p.key, p.presence, p.value.kind])).toEqual([
      ['a', 'required', 'string'],
      ['b', 'optional', 'optional'],
      ['c', 'defaulted', 'default'],
      ['d', 'defaulted', 'default'],
      ['e', 'required', 'default'],
    ])
    expect(n.properties[3]!.value).toMatchObject({ on: 'nullish', value: 1 })
    expect(n.properties[4]!.value).toMatchObject({ on: 'null', value: 'n' })
  })

  it('makes a variant with distinct discriminators a discriminated union', () => {
    const s = v.variant('type', [
      v.object({ type: v.literal('a'), x: v.string() }),
      v.object({ type: v.picklist(['b', 'c']), y: v.number() }),
    ])
    expect(valibotToIR(s as never)).toMatchObject({ kind: 'union', discriminator: 'type' })
  })

  it('follows lazy schemas into recursion', () => {
    type T = { children: T[] }
    const T: v.GenericSchema<T> = v.object({ children: v.array(v.lazy(() => T)) })
    expect(valibotToIR(T as never)).toMatchObject({ kind: 'recursive' })
  })
})

describe('valibotAdapter', () => {
  afterEach(() => {
    v.deleteGlobalConfig()
  })

  const User = v.object({
    name: v.pipe(v.string(), v.trim(), v.minLength(2)),
    email: v.pipe(v.string(), v.email()),
    role: v.optional(v.picklist(['admin', 'user']), 'user'),
  })

  it('is branded and cached per schema', () => {
    const a = valibotAdapter(User)
    expect(a[kAdapter]).toBe(true)
    expect(a.library).toBe('valibot')
    expect(valibotAdapter(User)).toBe(a)
    expect(() => valibotAdapter({} as never)).toThrow(/valibot 1 schema/)
  })

  it('accepts on the compiled path with valibot’s exact output', () => {
    const c = compile(valibotAdapter(User))
    expect(c.compiled).toBe(true)
    expect(c.validate({ name: ' Ada ', email: 'ada@example.com', extra: 1 }, false)).toEqual({
      success: true,
      data: { name: 'Ada', email: 'ada@example.com', role: 'user' },
    })
  })

  it('rejects with valibot’s issues: the first, or all with allErrors', () => {
    const c = compile(valibotAdapter(User))
    const bad = { name: 'A', email: 'x', role: 'root' }
    expect(c.validate(bad, false)).toEqual({
      success: false,
      issues: [
        {
          path: ['name'],
          message: 'Invalid length: Expected >=2',
          code: 'min_length',
        },
      ],
    })
    const all = c.validate(bad, true)
    expect(all).toMatchObject({
      success: false,
      issues: [
        { path: ['name'], code: 'min_length' },
        { path: ['email'], code: 'email', message: 'Invalid email' },
        { path: ['role'], code: 'picklist' },
      ],
    })
  })

  it('keeps a message written in the schema and the global language setting', () => {
    const a = valibotAdapter(v.object({ n: v.number('give a number') }))
    expect(a.parse({ n: 'x' }, false)).toMatchObject({ issues: [{ message: 'give a number' }] })
    v.setGlobalConfig({ abortEarly: true })
    const all = valibotAdapter(v.object({ a: v.string(), b: v.string() })).parse({}, true)
    expect(all).toMatchObject({ issues: [{ path: ['a'] }, { path: ['b'] }] })
  })

  it('validates defaults as valibot does (an invalid default sends the input to valibot)', () => {
    const c = compile(
      valibotAdapter(v.object({ n: v.optional(v.pipe(v.number(), v.minValue(5)), 1) })),
    )
    expect(c.validate({}, false)).toMatchObject({ success: false, issues: [{ path: ['n'] }] })
    expect(c.validate({ n: 7 }, false)).toEqual({ success: true, data: { n: 7 } })
  })

  it('runs async schemas natively', async () => {
    const a = valibotAdapter(
      v.objectAsync({
        n: v.pipeAsync(
          v.number(),
          v.checkAsync(async (n) => n > 0),
        ),
      }),
    )
    expect(a.async).toBe(true)
    expect(a.ir).toBeUndefined()
    expect(await a.parse({ n: 1 })).toEqual({ success: true, data: { n: 1 } })
  })

  it('writes the same JSON Schema shape as the zod adapter', () => {
    const s = toJsonSchema(valibotAdapter(User), { io: 'input' })
    expect(s).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 2 },
        email: { type: 'string', format: 'email' },
        role: { type: 'string', enum: ['admin', 'user'], default: 'user' },
      },
      required: ['name', 'email'],
    })
  })

  it('copies only own unknown keys of loose and rest objects, as valibot does (zod: inherited too)', () => {
    const input = Object.assign(Object.create({ inherited: 1 }), { a: 1, extra: 2 })
    for (const schema of [
      v.looseObject({ a: v.number() }),
      v.objectWithRest({ a: v.number() }, v.number()),
    ]) {
      const want = v.safeParse(schema, input)
      expect(compile(valibotAdapter(schema)).validate(input, false)).toEqual({
        success: true,
        data: want.output,
      })
      expect(want.output).toEqual({ a: 1, extra: 2 })
    }
  })
})
