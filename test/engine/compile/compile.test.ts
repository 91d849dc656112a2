import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it, vi } from 'vitest'
import * as z from 'zod'
import { zodAdapter } from '../../../src/adapters/zod/index.js'
import { compile, compileFallbacks, defineAdapter, type Result } from '../../../src/engine/index.js'
import {
  allowCompileFallbacks,
  uncompilableAdapter,
  unexpectedFallbacks,
} from '../../support/compile-fallbacks.js'

const run = (schema: z.ZodType, input: unknown, allErrors = false) =>
  compile(zodAdapter(schema)).validate(input, allErrors) as Result

const User = z.object({
  name: z.string().min(2).max(50),
  email: z.email(),
  age: z.int().min(0).optional(),
  role: z.enum(['admin', 'user']).default('user'),
  tags: z.array(z.string()).max(5),
  address: z.object({ zip: z.string().regex(/^\d{5}$/), city: z.string() }),
})

describe('compile', () => {
  it('compiles an exact schema and strips unknown keys in shape order', () => {
    const v = compile(zodAdapter(User))
    expect(v.compiled).toBe(true)
    const input = {
      extra: 1,
      address: { city: 'X', zip: '12345', more: 2 },
      tags: ['a'],
      email: 'a@b.co',
      name: 'Al',
    }
    const r = v.validate(input, false) as Result
    expect(r.success).toBe(true)
    if (!r.success) return
    expect(JSON.stringify(r.data)).toBe(
      '{"name":"Al","email":"a@b.co","role":"user","tags":["a"],"address":{"zip":"12345","city":"X"}}',
    )
    expect(input).toHaveProperty('extra', 1)
    expect(r.data).not.toBe(input)
  })

  it('keeps nothing of a schema once its validator is gone (schemas built per request)', () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const fresh = (i: number) =>
      z.object({
        name: z.string().trim().min(1),
        age: z.coerce.number().min(i % 5),
        tag: z.enum(['a', 'b']),
      })
    const input = { name: ' x ', age: '3', tag: 'a' }
    const round = (n: number) => {
      for (let i = 0; i < n; i++) compile(zodAdapter(fresh(i))).validate(input, false)
    }
    // A long warm-up: V8 13+ (Node 24, 26) keeps more code for the first few hundred compiled
    // validators before its heap settles.
    round(600)
    gc()
    const before = process.memoryUsage().heapUsed
    round(600)
    gc()
    gc()
    // Before instances rotated, each compiled schema held several times this for good (in ajv's
    // scope).
    expect((process.memoryUsage().heapUsed - before) / 600).toBeLessThan(3 * 1024)
  })

  it('compiles once per schema object', () => {
    expect(compile(zodAdapter(User))).toBe(compile(zodAdapter(User)))
  })

  it('lets zod write the issues on reject, a type mismatch as Expected …, received …', () => {
    expect(run(User, [])).toEqual({
      success: false,
      issues: [{ path: [], message: 'Expected object, received array', code: 'invalid_type' }],
    })
  })

  it('returns the first issue, or every issue with allErrors', () => {
    const bad = { name: 'A', email: 'x', tags: [], address: { zip: '1', city: 'X' } }
    const first = run(User, bad) as Extract<Result, { success: false }>
    expect(first.issues).toHaveLength(1)
    const all = run(User, bad, true) as Extract<Result, { success: false }>
    expect(all.issues.map((i) => i.path.join('.'))).toEqual(['name', 'email', 'address.zip'])
    expect(all.issues[1]).toEqual({
      path: ['email'],
      message: 'Invalid email address',
      code: 'invalid_format',
    })
  })

  it('keeps a message written in the schema', () => {
    const s = z.object({ n: z.number({ error: 'n must be a number' }) })
    expect(run(s, { n: 'x' })).toMatchObject({ issues: [{ message: 'n must be a number' }] })
  })

  it('coerces query strings exactly as zod does', () => {
    const Query = z.object({
      page: z.coerce.number().int().min(1).default(1),
      limit: z.coerce.number().max(100).default(20),
      tags: z.array(z.string()).optional(),
      q: z.string().trim().toLowerCase().optional(),
    })
    expect(compile(zodAdapter(Query)).compiled).toBe(true)
    expect(run(Query, { limit: '', page: '3', q: '  HeLLo ' })).toEqual({
      success: true,
      data: { page: 3, limit: 0, q: 'hello' },
    })
    expect(run(Query, { page: 'abc' })).toMatchObject({
      success: false,
      issues: [{ path: ['page'] }],
    })
    expect(run(Query, { limit: 'Infinity' })).toMatchObject({ success: false })
  })

  it('gives each request a fresh copy of an object default', () => {
    const s = z.object({ opts: z.object({ a: z.number() }).default({ a: 1 }) })
    const a = run(s, {}) as { data: { opts: object } }
    const b = run(s, {}) as { data: { opts: object } }
    expect(a.data.opts).toEqual({ a: 1 })
    expect(a.data.opts).not.toBe(b.data.opts)
  })

  it('counts string length in code points like zod', () => {
    expect(run(z.string().max(1), '😀')).toEqual({ success: true, data: '😀' })
    expect(run(z.string().length(2), '😀')).toMatchObject({ success: false })
  })

  it('picks the first union option zod would pick, stripped by its shape', () => {
    const s = z.union([z.object({ a: z.string() }), z.object({ a: z.string(), b: z.number() })])
    expect(run(s, { a: 'x', b: 1 })).toEqual({ success: true, data: { a: 'x' } })
  })

  it('merges intersections like zod', () => {
    const s = z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() }))
    expect(run(s, { b: 1, a: 'x', c: 2 })).toEqual({ success: true, data: { a: 'x', b: 1 } })
  })

  it('validates recursive schemas', () => {
    type Node = { name: string; children: Node[] }
    const Node: z.ZodType<Node> = z.object({
      name: z.string(),
      children: z.array(z.lazy(() => Node)),
    })
    expect(compile(zodAdapter(Node)).compiled).toBe(true)
    const input = { name: 'a', x: 1, children: [{ name: 'b', children: [], y: 2 }] }
    expect(run(Node, input)).toEqual({
      success: true,
      data: { name: 'a', children: [{ name: 'b', children: [] }] },
    })
    expect(run(Node, { name: 'a', children: [{ name: 1, children: [] }] })).toMatchObject({
      issues: [{ path: ['children', 0, 'name'] }],
    })
  })

  it('runs a schema with refinements on zod alone', () => {
    const fn = vi.fn((s: string) => s !== 'no')
    const s = z.object({ a: z.string().refine(fn) })
    expect(compile(zodAdapter(s)).compiled).toBe(false)
    expect(run(s, { a: 'no' })).toMatchObject({ success: false, issues: [{ code: 'custom' }] })
    expect(fn).toHaveBeenCalledTimes(1)
  })

  it('stays synchronous without async checks and returns a promise with them', async () => {
    const sync = compile(zodAdapter(z.string().refine((s) => s.length > 0)))
    expect(sync.validate('x', false)).toEqual({ success: true, data: 'x' })
    const asyncSchema = z.string().refine(async (s) => s === 'ok', 'not ok')
    const v = compile(zodAdapter(asyncSchema))
    const r = v.validate('nope', false)
    expect(r).toBeInstanceOf(Promise)
    expect(await r).toMatchObject({ success: false, issues: [{ message: 'not ok' }] })
    // A plain function returning a promise is only found by parsing: zod is asked again, async.
    const hidden = compile(zodAdapter(z.string().refine((s) => Promise.resolve(s === 'ok'))))
    expect(await hidden.validate('ok', false)).toEqual({ success: true, data: 'ok' })
  })

  it('sends undefined (no body) to the native parser', () => {
    expect(run(z.string().optional(), undefined)).toEqual({ success: true, data: undefined })
    expect(run(z.object({}), undefined)).toMatchObject({
      issues: [{ message: 'Expected object, received undefined' }],
    })
  })

  it('answers valid input without the library when the builder does every check (a root union or cast)', () => {
    const A = z.object({ type: z.literal('a'), n: z.number() })
    const B = z.object({ type: z.literal('b'), ok: z.boolean() })
    const schemas = [
      z.union([A, B]),
      z.discriminatedUnion('type', [A, B]),
      z.union([z.coerce.number().int(), A]),
      z.coerce.number().min(1),
    ]
    const inputs = [{ type: 'b', ok: true, x: 1 }, { type: 'b', ok: true }, '12', '7']
    for (const [i, schema] of schemas.entries()) {
      const zod = zodAdapter(schema)
      const parse = vi.fn(zod.parse)
      const v = compile(defineAdapter({ ...zod, schema: {}, parse }))
      expect(v.compiled).toBe(true)
      expect(v.validate(inputs[i], false)).toEqual({ success: true, data: schema.parse(inputs[i]) })
      expect(parse).not.toHaveBeenCalled()
      // Nothing no option accepts gets through: the library answers.
      expect(v.validate({ type: 'c' }, false)).toMatchObject({ success: false })
      expect(parse).toHaveBeenCalledTimes(1)
    }
  })

  it('compiles an adapter from any library through its IR', () => {
    const adapter = defineAdapter<string, string>({
      library: 'test',
      schema: {},
      ir: { kind: 'string', safety: 'exact', coerce: false, lengthUnit: 'code-point', checks: [] },
      async: false,
      parse: (x) => ({
        success: false,
        issues: [{ path: [], message: `no ${typeof x}`, code: 'x' }],
      }),
    })
    const v = compile(adapter)
    expect(v.compiled).toBe(true)
    expect(v.validate('s', false)).toEqual({ success: true, data: 's' })
    expect(v.validate(1, false)).toEqual({
      success: false,
      issues: [{ path: [], message: 'no number', code: 'x' }],
    })
  })

  it('hands a cyclic input (built in code, never JSON) to the library instead of overflowing', () => {
    const Node: z.ZodType<{ next?: unknown }> = z.object({
      get next() {
        return Node.optional()
      },
    })
    const cyclic: { next?: unknown } = {}
    cyclic.next = cyclic
    const r = compile(zodAdapter(Node)).validate(cyclic, false) as Result
    expect(r.success).toBe(Node.safeParse(cyclic).success)
  })

  it('counts code points only where the UTF-16 length leaves the answer open', () => {
    const schema = z.string().trim().min(1).max(3)
    const v = compile(zodAdapter(schema))
    expect(v.validate('😀😀😀', false)).toEqual({ success: true, data: '😀😀😀' })
    expect(v.validate('😀😀😀😀', false)).toMatchObject({ success: false })
    expect(v.validate('x'.repeat(100), false)).toMatchObject({ success: false })
    const min2 = compile(zodAdapter(z.string().trim().min(2)))
    expect(min2.validate('😀', false)).toMatchObject({ success: false })
  })

  it('skips a __proto__ key in records as zod does, also when picking a union option', () => {
    const schema = z.union([
      z.record(z.string(), z.string()),
      z.object({ a: z.string().default('') }),
    ])
    const v = compile(zodAdapter(schema))
    for (const input of [
      { ['__proto__']: undefined },
      JSON.parse('{"__proto__": 5}'),
      JSON.parse('{"__proto__": 5, "a": "x"}'),
    ]) {
      expect(v.validate(input, false)).toEqual({ success: true, data: schema.parse(input) })
    }
  })

  it('skips a __proto__ key in catch-all objects as zod does, also when picking a union option', () => {
    const schema = z.union([
      z.object({ a: z.string() }).catchall(z.string()),
      z.object({ a: z.string(), b: z.string().default('d') }),
    ])
    const input = JSON.parse('{"__proto__": 5, "a": "x"}')
    expect(compile(zodAdapter(schema)).validate(input, false)).toEqual({
      success: true,
      data: schema.parse(input),
    })
  })

  it('leaves to zod a union whose tuple option may miss a fixed item that accepts undefined', () => {
    const schema = z.union([z.tuple([z.any()], z.number()), z.array(z.string())])
    const v = compile(zodAdapter(schema))
    for (const input of [[], ['a'], [1, 2]]) {
      expect(v.validate(input, false)).toEqual({ success: true, data: schema.parse(input) })
    }
  })
})

describe('compile() when the IR does not compile', () => {
  it('answers with the native parser, and counts and keeps the failure', () => {
    allowCompileFallbacks(1)
    const before = compileFallbacks()
    const validator = compile(uncompilableAdapter())
    expect(validator.compiled).toBe(false)
    expect(validator.fallback).toBeInstanceOf(Error)
    expect(compileFallbacks()).toBe(before + 1)
    expect(validator.validate({ a: 1 }, false)).toEqual({ success: true, data: { a: 1 } })
  })

  it('is counted as unexpected by the test suite unless a test allows it', () => {
    allowCompileFallbacks(1)
    compile(uncompilableAdapter())
    expect(unexpectedFallbacks()).toBe(0)
    allowCompileFallbacks(-1)
    expect(unexpectedFallbacks()).toBe(1)
    allowCompileFallbacks(1)
  })
})

describe("the engine's use of ajv", () => {
  it('imports only the entry points ajv documents, never a file of its compiler', () => {
    const engine = join(import.meta.dirname, '../../../src/engine')
    const specifiers = readdirSync(engine, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        [...readFileSync(join(engine, file), 'utf8').matchAll(/from '(ajv[^']*)'/g)].map(
          (m) => m[1],
        ),
      )
    expect(specifiers.length).toBeGreaterThan(0)
    expect(specifiers.filter((s) => s !== 'ajv' && s !== 'ajv/dist/2020.js')).toEqual([])
  })
})
