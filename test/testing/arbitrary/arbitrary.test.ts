import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import * as y from 'yup'
import * as z from 'zod'
import { valibotAdapter } from '../../../src/adapters/valibot/index.js'
import { yupAdapter } from '../../../src/adapters/yup/yup-adapter.js'
import { zodAdapter } from '../../../src/adapters/zod/index.js'
import { gen } from '../../../src/testing/arbitrary/ir-valid.js'
import { arbitrary } from '../../../src/testing/index.js'
import { fastCheck } from '../../../src/testing/load-fast-check.js'
import { schemaCase } from '../../support/arbitrary.js'
import { valibotCase } from '../../support/arbitrary-valibot.js'
import { yupCase } from '../../support/arbitrary-yup.js'
import { census, publicCensus } from './arbitrary-census.js'

// `npm test` keeps these small; `npm run fuzz` raises FUZZ_RUNS.
const RUNS = Math.min(Number(process.env.FUZZ_RUNS ?? 60), 5000)
const accepts = (schema: z.ZodType, x: unknown) => schema.safeParse(structuredClone(x)).success

describe('arbitrary (raw IR generators on random zod schemas)', () => {
  it(`yields valid values zod accepts: 0 rejected over ${RUNS} random schemas`, () => {
    const c = census(schemaCase, (s) => zodAdapter(s.schema), RUNS)
    expect(c.failures.filter((f) => f.startsWith('valid'))).toEqual([])
    expect(c.rejected).toBe(0)
    // Most schemas are fully visible to the IR and give values (the rest give up: email.length(3)).
    expect(c.values).toBeGreaterThan(c.visible * 5)
  }, 120_000)
})

describe('arbitrary (raw IR generators on intersections)', () => {
  // Each side of an intersection parses the whole value: one side's keys must suit the other,
  // and both outputs must merge (npm run fuzz found these among 5,000 random schemas). A refined
  // field leaves the engine no compiled check of the whole to filter with, as recursion does.
  // Before: values with a key the catch-all refuses, a default only one side fills (zod throws
  // "Unmergable intersection"), a required key missing.
  const r = z
    .number()
    .refine(() => true)
    .optional()
  it.each([
    [
      "a catch-all side and the other side's keys",
      z
        .object({ r })
        .catchall(z.number())
        .and(z.object({ c: z.string().optional() })),
    ],
    [
      'a side that leaves what the other one fills',
      z.looseObject({ r }).and(z.object({ n: z.number().default(1) })),
    ],
    [
      'a required key of one side',
      z
        .object({ a: z.object({ v: z.number() }), r })
        .and(z.object({ a: z.object({ w: z.string() }).optional() })),
    ],
  ])('yields only values zod accepts: %s', (_, schema) => {
    const ir = zodAdapter(schema).ir!
    const values = fc.sample(
      gen(ir, { fc: fastCheck(), at: 'value', recursions: new Map(), rounds: 0 })!,
      {
        numRuns: 200,
        seed: 1,
      },
    )
    expect(values.filter((x) => !accepts(schema, x))).toEqual([])
  })
})

describe.each([
  ['zod', schemaCase, (c: { schema: z.ZodType }) => zodAdapter(c.schema)],
  ['valibot', valibotCase, (c: { schema: v.GenericSchema }) => valibotAdapter(c.schema)],
  ['yup', yupCase, (c: { schema: y.AnySchema }) => yupAdapter(c.schema)],
] as const)('arbitrary(schema) on random %s schemas', (_, cases, adapterOf) => {
  it('yields valid values the library accepts and invalid ones it rejects (counted, 0 wrong)', () => {
    const c = publicCensus(cases as never, adapterOf as never, RUNS, (adapter, mode) =>
      arbitrary(adapter, { mode }),
    )
    expect({ rejected: c.rejected, accepted: c.accepted }).toEqual({ rejected: 0, accepted: 0 })
    expect(c.valid).toBeGreaterThan(c.schemas * 3)
    expect(c.invalid).toBeGreaterThan(c.schemas * 2)
  }, 120_000)
})

describe('arbitrary', () => {
  it('counts string lengths in the library unit: code points for zod, UTF-16 units for valibot', () => {
    const zs = z.string().length(3)
    const zodValues = fc.sample(arbitrary(zs), { numRuns: 200, seed: 3 }) as string[]
    expect(zodValues.every((s) => Array.from(s).length === 3)).toBe(true)
    expect(zodValues.some((s) => s.length > 3)).toBe(true)
    const vs = v.pipe(v.string(), v.length(3))
    const valibotValues = fc.sample(arbitrary(valibotAdapter(vs)), { numRuns: 200, seed: 3 })
    expect(valibotValues.every((s) => (s as string).length === 3)).toBe(true)
  })

  it('generates strings for regexes and formats', () => {
    const code = z.string().regex(/^[A-Z]{3}-\d{2}$/)
    const schema = z.object({ code, email: z.email(), id: z.uuid(), at: z.iso.datetime() })
    for (const x of fc.sample(arbitrary(schema), { numRuns: 50, seed: 1 })) {
      expect(accepts(schema, x)).toBe(true)
    }
  })

  it('yields near misses, one rule broken at a time, that the library rejects', () => {
    const User = z.strictObject({
      name: z.string().trim().min(1).max(20),
      age: z.int().min(0).max(150),
      tags: z.array(z.enum(['a', 'b'])).max(3),
    })
    const misses = fc.sample(arbitrary(User, { mode: 'invalid' }), { numRuns: 300, seed: 2 })
    expect(misses.every((x) => !accepts(User, x))).toBe(true)
    const issues = new Set(misses.map((x) => User.safeParse(x).error!.issues[0]!.code))
    // Bounds, types, enums, unknown keys and missing keys all appear.
    for (const code of [
      'too_small',
      'too_big',
      'invalid_type',
      'invalid_value',
      'unrecognized_keys',
    ])
      expect(issues).toContain(code)
  })

  it('yields hostile values: proto keys, depth, long arrays and strings, odd characters', () => {
    const schema = z.object({ name: z.string(), tags: z.array(z.string()) })
    const values = fc.sample(arbitrary(schema, { mode: 'hostile' }), { numRuns: 300, seed: 4 })
    const text = values.map((x) => JSON.stringify(x))
    expect(text.some((t) => t.startsWith('{"__proto__"'))).toBe(true)
    expect(text.some((t) => t.includes('"constructor"'))).toBe(true)
    expect(text.some((t) => t.includes('a'.repeat(10_001)))).toBe(true)
    expect(text.some((t) => (t.match(/\[|\{/g) ?? []).length > 20)).toBe(true)
    expect(text.some((t) => /\\u0000|\u200b|\u202e/.test(t))).toBe(true)
    expect(Object.prototype).not.toHaveProperty('polluted')
  })

  it('shrinks to the smallest counterexample', () => {
    const schema = z.object({ n: z.int().min(0).max(1000), s: z.string() })
    const run = fc.check(
      fc.property(arbitrary(schema), (x) => (x as { n: number }).n < 10),
      { seed: 5 },
    )
    expect(run.failed).toBe(true)
    expect(run.counterexample?.[0]).toEqual({ n: 10, s: '' })
  })

  it('filters refinements the IR cannot see, and says so when the filter rejects too much', () => {
    const even = z
      .int()
      .min(0)
      .max(100)
      .refine((n) => n % 2 === 0)
    expect(
      fc.sample(arbitrary(even), { numRuns: 50, seed: 1 }).every((n) => (n as number) % 2 === 0),
    ).toBe(true)
    const never = z.string().refine(() => false)
    expect(() => fc.sample(arbitrary(never), 1)).toThrow(/gave up generating valid values/)
  })

  it('works for bare yup schemas through yupAdapter and says what to do with a schema without IR', () => {
    const schema = y.object({ name: y.string().required().min(2) })
    for (const x of fc.sample(arbitrary(yupAdapter(schema)), { numRuns: 30, seed: 1 }))
      expect(schema.isValidSync(x)).toBe(true)
    const bare = y.object({
      code: y
        .string()
        .required()
        .matches(/^[A-Z]{8}$/),
    })
    expect(() => fc.sample(arbitrary(bare as never), 1)).toThrow(/yupAdapter/)
  })

  it('checks its options', () => {
    expect(() => arbitrary(z.string(), { mode: 'nope' as never })).toThrow(
      /options\.mode must be one of valid, invalid, hostile/,
    )
    expect(() => arbitrary(z.unknown(), { mode: 'invalid' })).toThrow(/no invalid values/)
    const misspelt = () => arbitrary(z.string(), { mod: 'invalid' } as never)
    expect(misspelt).toThrow(TypeError)
    expect(misspelt).toThrow(/\bmod is not an option/)
    expect(misspelt).toThrow('(mode)')
  })

  it('starts every message with one shapeguard: prefix', () => {
    const messages = [
      () => arbitrary(z.string(), { mode: 'nope' as never }),
      () => arbitrary(z.unknown(), { mode: 'invalid' }),
      () => arbitrary(z.string(), { mod: 'invalid' } as never),
      () => arbitrary(z.never()),
      () => fc.sample(arbitrary(z.string().refine(() => false)), 1),
      () => arbitrary(42 as never),
    ].map((f) => {
      try {
        f()
      } catch (error) {
        return (error as Error).message
      }
      return 'no error'
    })
    for (const m of messages) expect(m).toMatch(/^shapeguard: (?!.*shapeguard:)/s)
    expect(messages.slice(3, 5)).toEqual([
      'shapeguard: arbitrary(): the schema at the value accepts no value',
      expect.stringMatching(/^shapeguard: arbitrary\(\): gave up generating valid values/),
    ])
  })

  // Each within a few seconds: a huge bound is sampled near its low end, never built in full.
  it('samples a huge lower bound near it: z.string().min(100000) and min(20000000)', () => {
    for (const min of [100_000, 20_000_000]) {
      const schema = z.string().min(min)
      const values = fc.sample(arbitrary(schema), { numRuns: 5, seed: 1 }) as string[]
      expect(values.every((s) => s.length >= min && s.length <= min + 12)).toBe(true)
      expect(values.every((s) => accepts(schema, s))).toBe(true)
    }
  }, 5_000)

  it('builds no near miss past a million characters: z.string().max(3e8) gives the others', () => {
    const schema = z.string().max(3e8)
    const misses = fc.sample(arbitrary(schema, { mode: 'invalid' }), { numRuns: 50, seed: 1 })
    expect(misses.every((x) => !accepts(schema, x))).toBe(true)
    expect(misses.some((x) => typeof x !== 'string')).toBe(true)
    const short = fc.sample(arbitrary(z.string().min(100_000), { mode: 'invalid' }), {
      numRuns: 100,
      seed: 1,
    })
    expect(short).toContain('a'.repeat(99_999))
  }, 5_000)
})
