import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { zodAdapter } from '../../../src/adapters/zod/index.js'

const secret = 'S3CRET-v4lue'

describe('zod messages (through zodAdapter)', () => {
  it('never print the value of a field: zod 4 states what was expected', () => {
    // One field per issue kind zod can raise for a JSON value; every value is the secret.
    const schema = z.object({
      number: z.number(),
      literal: z.literal('k'),
      enum: z.enum(['x', 'y']),
      email: z.email(),
      min: z.string().min(30),
      date: z.date(),
      regex: z.string().regex(/^a/),
      union: z.union([z.number(), z.boolean()]),
      bigint: z.bigint(),
      datetime: z.iso.datetime(),
      stringbool: z.stringbool(),
      template: z.templateLiteral(['a', z.number()]),
      int: z.int(),
      multiple: z.number().multipleOf(5),
      url: z.url(),
      discriminated: z.discriminatedUnion('t', [z.object({ t: z.literal('a') })]),
      xor: z.xor([z.string(), z.string()]),
      custom: z.custom(() => false),
      startsWith: z.string().startsWith('zz'),
      coerced: z.coerce.number(),
      set: z.set(z.number()),
      nested: z.array(z.object({ n: z.number() })),
    })
    const input = Object.fromEntries(Object.keys(schema.shape).map((k) => [k, secret]))
    Object.assign(input, { int: 1.717171, multiple: 7.1717, nested: [{ n: secret }] })
    const r = zodAdapter(schema).parse(input, true)
    if (r instanceof Promise || r.success) throw new Error('expected a synchronous rejection')
    expect(r.issues.length).toBe(Object.keys(schema.shape).length)
    for (const issue of r.issues) {
      expect(issue.message).not.toContain(secret)
      expect(issue.message).not.toContain('1717')
    }
  })
})
