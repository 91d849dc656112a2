import * as v from 'valibot'
import { afterEach, describe, expect, it } from 'vitest'
import { toAdapter } from '../../../src/adapters/resolve.js'
import { valibotAdapter } from '../../../src/adapters/valibot/index.js'

const secret = 'S3CRET-v4lue'

function messages(schema: v.GenericSchema, input: unknown, bare = false): string[] {
  const r = (bare ? toAdapter(schema) : valibotAdapter(schema)).parse(input, true)
  if (r instanceof Promise || r.success) throw new Error('expected a synchronous rejection')
  return r.issues.map((i) => i.message)
}

afterEach(() => {
  v.deleteGlobalMessage()
})

describe('issueMessage (through valibotAdapter and a bare valibot schema)', () => {
  it('keeps what was expected and drops the value valibot’s defaults print', () => {
    const schema = v.object({
      n: v.number(),
      e: v.pipe(v.string(), v.email()),
      age: v.pipe(v.number(), v.minValue(18)),
      p: v.picklist(['x', 'y']),
      lit: v.literal('k'),
      d: v.date(),
      r: v.pipe(v.string(), v.regex(/^a/)),
      arr: v.array(v.number()),
      c: v.pipe(
        v.string(),
        v.check(() => false),
      ),
      s: v.strictObject({ q: v.string() }),
      o: v.object({ k: v.string() }),
    })
    const got = messages(schema, {
      n: secret,
      e: secret,
      age: 17.1717,
      p: secret,
      lit: secret,
      d: secret,
      r: secret,
      arr: [secret],
      c: secret,
      s: { q: 'x', [secret]: 1 },
      o: null,
    })
    expect(got).toEqual([
      'Invalid type: Expected number but received string',
      'Invalid email',
      'Invalid value: Expected >=18',
      'Invalid type: Expected ("x" | "y") but received string',
      'Invalid type: Expected "k" but received string',
      'Invalid type: Expected Date but received string',
      'Invalid format: Expected /^a/',
      'Invalid type: Expected number but received string',
      'Invalid input',
      'Invalid key: Expected never but received string',
      'Invalid type: Expected Object but received null',
    ])
    for (const m of got) {
      expect(m).not.toContain(secret)
      expect(m).not.toContain('17.1717')
    }
    // A bare valibot schema (Standard Schema, from the main entry) gives the same messages.
    expect(messages(schema, { n: secret, e: secret }, true).slice(0, 2)).toEqual(got.slice(0, 2))
    // What valibot itself says, for the record: the value is in it.
    expect(JSON.stringify(v.safeParse(schema, { n: secret }).issues)).toContain(secret)
  })

  it('keeps messages written in the schema and a global message', () => {
    const schema = v.object({ a: v.string('give a string'), b: v.string() })
    expect(messages(schema, { a: 1, b: 1 })).toEqual([
      'give a string',
      'Invalid type: Expected string but received number',
    ])
    v.setGlobalMessage((issue) => `global ${issue.expected}`)
    expect(messages(schema, { a: 1, b: 1 })).toEqual(['give a string', 'global string'])
    expect(messages(schema, { a: 1, b: 1 }, true)).toEqual(['give a string', 'global string'])
  })
})
