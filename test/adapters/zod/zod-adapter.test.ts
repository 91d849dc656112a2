import { afterEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { zodAdapter } from '../../../src/adapters/zod/index.js'
import { compile, kAdapter } from '../../../src/engine/index.js'

describe('zodAdapter', () => {
  afterEach(() => {
    z.config({ customError: undefined })
  })

  it('is branded with Symbol.for("shapeguard.adapter")', () => {
    const a = zodAdapter(z.string())
    expect(a[kAdapter]).toBe(true)
    expect((a as unknown as Record<symbol, unknown>)[Symbol.for('shapeguard.adapter')]).toBe(true)
    expect(a.async).toBe(false)
  })

  it('renders type mismatches as Expected …, received …; keeps zod’s other messages', () => {
    const a = zodAdapter(z.object({ n: z.number(), s: z.string().min(3), d: z.number() }))
    expect(a.parse({ n: NaN, s: 'x', d: Infinity })).toEqual({
      success: false,
      issues: [
        { path: ['n'], message: 'Expected number, received NaN', code: 'invalid_type' },
        {
          path: ['s'],
          message: 'Too small: expected string to have >=3 characters',
          code: 'too_small',
        },
        { path: ['d'], message: 'Expected number, received Infinity', code: 'invalid_type' },
      ],
    })
  })

  it('lets schema messages and a global custom error map win', () => {
    expect(zodAdapter(z.string('Give text')).parse(1)).toMatchObject({
      issues: [{ message: 'Give text' }],
    })
    z.config({ customError: () => 'global says no' })
    expect(zodAdapter(z.boolean()).parse(1)).toMatchObject({
      issues: [{ message: 'global says no' }],
    })
  })

  it('knows async refinements before parsing', async () => {
    const a = zodAdapter(z.object({ a: z.string().refine(async () => true) }))
    expect(a.async).toBe(true)
    expect(a.ir).toBeUndefined()
    expect(await a.parse({ a: 'x' })).toEqual({ success: true, data: { a: 'x' } })
  })

  it('keeps nothing from one parse to the next (zod memoises per parse, by input object)', () => {
    const Tree: z.ZodType<{ name: string; children: unknown[] }> = z.object({
      name: z.string().refine((s) => s.length > 0),
      get children() {
        return z.array(Tree)
      },
    })
    const a = zodAdapter(Tree)
    const body: { name: unknown; children: unknown[] } = { name: 'root', children: [] }
    expect(a.parse(body)).toMatchObject({ success: true })
    body.name = 42
    expect(a.parse(body)).toMatchObject({ success: false })
    expect(Tree.safeParse(body).success).toBe(false)
  })

  it('copies inherited enumerable unknown keys of loose objects, as zod does', () => {
    const input = Object.assign(Object.create({ inherited: 1 }), { a: 1 })
    const schema = z.looseObject({ a: z.number() })
    expect(compile(zodAdapter(schema)).validate(input, false)).toEqual({
      success: true,
      data: schema.parse(input),
    })
  })

  it('leaves a NaN bound (min(NaN), an Invalid Date) to zod, which rejects every value', () => {
    for (const [schema, input] of [
      [z.number().min(Number.NaN), 5],
      [z.number().lt(Number.NaN), 5],
      [z.date().max(new Date('nope')), new Date(0)],
    ] as const) {
      expect(compile(zodAdapter(schema)).validate(input, false)).toMatchObject({ success: false })
      expect(schema.safeParse(input).success).toBe(false)
    }
  })
})
