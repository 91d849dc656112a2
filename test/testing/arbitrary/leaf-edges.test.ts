import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { valibotAdapter } from '../../../src/adapters/valibot/index.js'
import { zodAdapter } from '../../../src/adapters/zod/index.js'
import type { IRNode } from '../../../src/engine/ir/types.js'
import { defaultReach } from '../../../src/testing/arbitrary/caps.js'
import { fixedSample } from '../../../src/testing/arbitrary/ir-edges.js'
import { leafEdges } from '../../../src/testing/arbitrary/leaf-edges.js'
import { fastCheck } from '../../../src/testing/load-fast-check.js'

/** A leaf's edges from its fixed sample, as the boundaries phase builds them; its notes too. */
function edgesOf(ir: IRNode) {
  const ctx = { fc: fastCheck(), at: 'x', recursions: new Map(), rounds: 0 }
  const notes: string[] = []
  const edges = leafEdges(ir, fixedSample(ir, ctx), defaultReach, (n) => notes.push(n))
  return { ...edges, notes }
}
const zodEdges = (schema: z.ZodType) => edgesOf(zodAdapter(schema).ir!)

const ok = (schema: z.ZodType) => (x: unknown) => schema.safeParse(x).success
const length = (x: unknown) => (typeof x === 'string' ? Array.from(x).length : -1)

/**
 * Every rule's miss breaks that rule alone: for each `[rule, schema without it]`, some invalid
 * edge the whole schema rejects is accepted once the rule is left out.
 */
function expectEachRuleAlone(
  full: z.ZodType,
  invalid: readonly unknown[],
  without: Record<string, z.ZodType>,
) {
  for (const x of invalid) expect(ok(full)(x), `${String(x)} is invalid`).toBe(false)
  for (const [rule, rest] of Object.entries(without))
    expect(invalid.filter(ok(rest)), `a miss that breaks ${rule} alone`).not.toEqual([])
}

describe('leafEdges', () => {
  it('sends z.int().min(3).max(99).multipleOf(3) one step past each bound, off the step inside them, and a fraction inside them', () => {
    const schema = z.int().min(3).max(99).multipleOf(3)
    const { valid, invalid } = zodEdges(schema)
    expect(valid).toEqual([3, 99, 6, 96])
    // Before: [2, 2.5, 2.999999999, 100, 99.5, 99.000000001], the bound misses only.
    expect(invalid).toEqual([2, 0, 100, 102, 4.5, 4])
    expectEachRuleAlone(schema, invalid, {
      min: z.int().max(99).multipleOf(3),
      max: z.int().min(3).multipleOf(3),
      multipleOf: z.int().min(3).max(99),
    })
    // No non-integer multiple of 3 exists: the fraction inside the bounds breaks the step too.
    expect(invalid.filter((x) => !Number.isInteger(x) && ok(z.number().min(3).max(99))(x))).toEqual(
      [4.5],
    )
  })

  it('sends a fraction inside an integer’s bounds that breaks nothing else', () => {
    const schema = z.coerce.number().int().min(1).max(1000)
    const { invalid } = zodEdges(schema)
    expect(invalid).toContain(0)
    expect(invalid).toContain(1001)
    expectEachRuleAlone(schema, invalid, {
      min: z.number().int().max(1000),
      max: z.number().int().min(1),
      integer: z.number().min(1).max(1000),
    })
  })

  it('sends a number with exclusive bounds its bounds themselves as misses, one step inside them as edges', () => {
    const schema = z.number().gt(0).lt(1)
    const { valid, invalid } = zodEdges(schema)
    expect(valid).toEqual([1e-9, 0.999999999])
    expect(invalid.slice(0, 1)).toEqual([0])
    expect(invalid).toContain(1)
    expectEachRuleAlone(schema, invalid, { gt: z.number().lt(1), lt: z.number().gt(0) })
  })

  it('keeps a decimal step’s miss inside the bounds among the bound misses', () => {
    const schema = z.number().min(0).max(100_000).multipleOf(0.01)
    const { invalid } = zodEdges(schema)
    expect(invalid).toContain(0.005)
    expectEachRuleAlone(schema, invalid, {
      min: z.number().max(100_000).multipleOf(0.01),
      max: z.number().min(0).multipleOf(0.01),
      multipleOf: z.number().min(0).max(100_000),
    })
  })

  it('keeps a decimal step’s bounds as valid edges the library accepts, which an exact quotient refuses', () => {
    // 0.3 / 0.1 is 2.9999999999999996: the compiled check refuses 0.3, zod allows the float error.
    const schema = z.number().min(0.3).max(0.9).multipleOf(0.1)
    const { valid } = zodEdges(schema)
    expect(valid).toContain(0.3)
    expect(valid).toContain(0.9)
    for (const x of valid) expect(ok(schema)(x), `${x} is valid`).toBe(true)
  })

  it('sends a string with lengths and a regex each rule broken alone, and each length bound met', () => {
    const schema = z
      .string()
      .min(3)
      .max(10)
      .regex(/^[a-z]+$/)
    const { valid, invalid } = zodEdges(schema)
    expect(valid.map(length)).toEqual(expect.arrayContaining([3, 10]))
    expect(invalid.map(length)).toEqual(expect.arrayContaining([2, 11]))
    expectEachRuleAlone(schema, invalid, {
      min: z
        .string()
        .max(10)
        .regex(/^[a-z]+$/),
      max: z
        .string()
        .min(3)
        .regex(/^[a-z]+$/),
      regex: z.string().min(3).max(10),
    })
  })

  it('grows an email to its max length in a way that keeps it an email, and breaks the length and the format each alone', () => {
    const schema = z.email().min(5).max(40)
    const { valid, invalid } = zodEdges(schema)
    // The shortest email is a format edge; the one of 40 characters is an email still.
    expect(valid).toContain('a@b.co')
    expect(valid.filter((x) => length(x) === 40 && ok(z.email())(x))).toHaveLength(1)
    expect(invalid).toContain('a@b.c')
    expectEachRuleAlone(schema, invalid, {
      max: z.email().min(5),
      email: z.string().min(5).max(40),
    })
    // No email has fewer than 6 characters: the min miss breaks the format too.
    expect(invalid.some((x) => length(x) === 4)).toBe(true)
  })

  it('sends a uuid the nil and max UUIDs and a step off each', () => {
    const { valid, invalid } = zodEdges(z.uuid())
    expect(valid.slice(0, 2)).toEqual([
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
    ])
    expect(invalid.slice(0, 2)).toEqual([
      '00000000-0000-0000-0000-00000000000g',
      'ffffffff-ffff-ffff-ffff-fffffffffffff',
    ])
  })

  it('sends a date-time a leap day and the epoch, a day that does not exist, and a length miss that is a date-time still', () => {
    const schema = z.iso.datetime().max(24)
    const { valid, invalid } = zodEdges(schema)
    expect(valid).toEqual(
      expect.arrayContaining(['2024-02-29T23:59:59.999Z', '1970-01-01T00:00:00Z']),
    )
    expect(invalid).toContain('2023-02-29T23:59:59.999Z')
    expectEachRuleAlone(schema, invalid, {
      max: z.iso.datetime(),
      datetime: z.string().max(24),
    })
  })

  it('sends an ISO date a leap day and the last day, and the days after them', () => {
    const { valid, invalid } = zodEdges(z.iso.date())
    expect(valid.slice(0, 2)).toEqual(['2024-02-29', '9999-12-31'])
    expect(invalid.slice(0, 2)).toEqual(['2023-02-29', '9999-12-32'])
  })

  it('chooses a valibot integer’s misses the same way', () => {
    const node = valibotAdapter(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(99))).ir!
    expect(node.kind).toBe('number')
    const { invalid } = edgesOf(node)
    expect(invalid).toEqual(expect.arrayContaining([0, 100, 1.5]))
  })

  it('gives the same lists every time', () => {
    const schema = z.object({ a: z.email().max(30) }).shape.a
    expect(zodEdges(schema)).toEqual(zodEdges(schema))
  })
})
