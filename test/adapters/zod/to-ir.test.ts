import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { zodToIR } from '../../../src/adapters/zod/to-ir.js'
import type { IRNode, IRObject, IRString } from '../../../src/engine/ir/types.js'

const kindOf = (s: z.ZodType) => {
  const n = zodToIR(s)
  return [n.kind, n.safety]
}

describe('zodToIR', () => {
  it('maps every exact leaf kind', () => {
    expect(kindOf(z.string())).toEqual(['string', 'exact'])
    expect(kindOf(z.number())).toEqual(['number', 'exact'])
    expect(kindOf(z.int())).toEqual(['number', 'exact'])
    expect(kindOf(z.bigint())).toEqual(['bigint', 'exact'])
    expect(kindOf(z.boolean())).toEqual(['boolean', 'exact'])
    expect(kindOf(z.null())).toEqual(['null', 'exact'])
    expect(kindOf(z.literal('a'))).toEqual(['literal', 'exact'])
    expect(kindOf(z.enum(['a', 'b']))).toEqual(['enum', 'exact'])
    expect(kindOf(z.unknown())).toEqual(['unknown', 'exact'])
    expect(kindOf(z.any())).toEqual(['unknown', 'exact'])
    expect(kindOf(z.never())).toEqual(['never', 'exact'])
    expect(kindOf(z.date())).toEqual(['date', 'exact'])
    expect(kindOf(z.nan())).toEqual(['nan', 'exact'])
  })

  it('keeps string checks in zod order with zod’s own RegExp objects', () => {
    const re = /^[a-z]+$/
    const n = zodToIR(z.string().min(2).trim().regex(re).max(5)) as IRString
    expect(n.checks.map((c) => c.kind)).toEqual([
      'min_length',
      'transform',
      'pattern',
      'max_length',
    ])
    expect(n.checks[2]).toMatchObject({ pattern: re, format: 'regex' })
    expect(n.checks[1]).toMatchObject({ name: 'trim' })
  })

  it('puts a format schema’s own check first and reuses its regex', () => {
    const email = z.email()
    const n = zodToIR(email.min(3)) as IRString
    expect(n.checks[0]).toMatchObject({
      kind: 'pattern',
      format: 'email',
      pattern: email._zod.def.pattern,
    })
    expect(n.checks[1]).toEqual({ kind: 'min_length', value: 3 })
  })

  it('runs formats with their own check functions through zod (url normalises)', () => {
    const n = zodToIR(z.url()) as IRString
    expect(n.checks[0]).toMatchObject({ kind: 'format', format: 'url' })
    const run = (n.checks[0] as { run: (s: string) => string | undefined }).run
    expect(run(' https://x.org ')).toBe('https://x.org')
    expect(run('nope')).toBeUndefined()
  })

  it('maps number formats and bounds, coercion included', () => {
    expect(zodToIR(z.coerce.number().int().min(1).lt(10).multipleOf(2))).toMatchObject({
      kind: 'number',
      coerce: true,
      integer: true,
      format: 'safeint',
      safety: 'stricter',
    })
    const n = zodToIR(z.int32()) as Extract<IRNode, { kind: 'number' }>
    expect(n.checks).toContainEqual({ kind: 'gte', value: -2147483648 })
  })

  it('describes object presence: required, optional, defaulted', () => {
    const n = zodToIR(
      z.object({ a: z.string(), b: z.string().optional(), c: z.string().default('x') }),
    ) as IRObject
    expect(n.properties.map((p) => [p.key, p.presence])).toEqual([
      ['a', 'required'],
      ['b', 'optional'],
      ['c', 'defaulted'],
    ])
    expect(n.unknownKeys).toBe('strip')
  })

  it('maps strip, strict, passthrough and catchall objects', () => {
    expect(zodToIR(z.strictObject({}))).toMatchObject({ unknownKeys: 'strict' })
    expect(zodToIR(z.looseObject({}))).toMatchObject({
      unknownKeys: 'catchall',
      catchall: { kind: 'unknown' },
    })
    expect(zodToIR(z.object({}).catchall(z.number()))).toMatchObject({
      catchall: { kind: 'number' },
    })
  })

  it('reads a static default and keeps zod’s getter for the value', () => {
    const n = zodToIR(z.array(z.string()).default(['a']))
    expect(n).toMatchObject({ kind: 'default', value: ['a'] })
    const get = (n as Extract<IRNode, { kind: 'default' }>).get
    expect(get()).not.toBe(get())
    expect(zodToIR(z.number().default(() => Math.random()))).toMatchObject({ value: undefined })
  })

  it('maps composites', () => {
    expect(kindOf(z.array(z.string()))).toEqual(['array', 'exact'])
    expect(kindOf(z.tuple([z.string()], z.number()))).toEqual(['tuple', 'exact'])
    expect(kindOf(z.record(z.string(), z.number()))).toEqual(['record', 'exact'])
    expect(kindOf(z.union([z.string(), z.number()]))).toEqual(['union', 'exact'])
    expect(zodToIR(z.discriminatedUnion('t', [z.object({ t: z.literal('a') })]))).toMatchObject({
      kind: 'union',
      discriminator: 't',
    })
    expect(kindOf(z.intersection(z.object({}), z.object({})))).toEqual(['intersection', 'stricter'])
    expect(kindOf(z.string().optional())).toEqual(['optional', 'exact'])
    expect(kindOf(z.string().nullable())).toEqual(['nullable', 'exact'])
    expect(kindOf(z.string().readonly())).toEqual(['readonly', 'exact'])
    expect(kindOf(z.string().pipe(z.coerce.number()))).toEqual(['pipe', 'exact'])
    expect(kindOf(z.string().brand('Id'))).toEqual(['string', 'exact'])
  })

  it('marks what only zod can run as native, keeping the input shape for docs', () => {
    for (const s of [
      z.string().refine((x) => x.length > 1),
      z.string().superRefine(() => {}),
      z.string().transform((x) => x.length),
      z.preprocess((x) => x, z.string()),
      z.string().catch('x'),
      z.custom<string>(() => true),
      z.set(z.string()),
      z.map(z.string(), z.string()),
      z.string().prefault('x'),
      z.record(z.enum(['a', 'b']), z.number()),
      z.symbol(),
    ]) {
      expect(zodToIR(s).safety, s._zod.def.type).toBe('native')
    }
    expect(zodToIR(z.string().refine(() => true))).toMatchObject({
      kind: 'native',
      inner: { kind: 'string' },
    })
  })

  it('turns recursion into a recursive node with refs', () => {
    type Tree = { children: Tree[] }
    const Tree: z.ZodType<Tree> = z.object({ children: z.array(z.lazy(() => Tree)) })
    const n = zodToIR(Tree)
    expect(n.kind).toBe('recursive')
    expect(n.safety).toBe('exact')
    expect(JSON.stringify(n)).toContain('"kind":"ref"')
  })

  it('degrades an unknown zod type to native instead of throwing', () => {
    const fake = { _zod: { def: { type: 'hologram' }, traits: new Set(), run: () => ({}) } }
    expect(zodToIR(fake as never)).toMatchObject({
      kind: 'native',
      reason: 'unsupported',
      detail: 'zod type hologram',
    })
  })

  it('carries metadata (description, title, examples)', () => {
    expect(
      zodToIR(z.string().meta({ title: 'T', description: 'D', examples: ['x'] })).meta,
    ).toEqual({
      title: 'T',
      description: 'D',
      examples: ['x'],
    })
  })
})
