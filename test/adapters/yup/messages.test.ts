import { describe, expect, it } from 'vitest'
import * as y from 'yup'
import { yupAdapter } from '../../../src/adapters/yup/yup-adapter.js'

const secret = 'S3CRET-v4lue'

function messages(schema: y.AnySchema, input: unknown): string[] {
  const r = yupAdapter(schema).parse(input, true)
  if (r instanceof Promise || r.success) throw new Error('expected a synchronous rejection')
  return r.issues.map((i) => i.message)
}

describe('issueMessage (through yupAdapter)', () => {
  it('drops the value from yup’s default type errors, keeping their meaning', () => {
    const schema = y.object({
      age: y.number(),
      born: y.date(),
      pair: y.tuple([y.string(), y.string()]),
      any: y.mixed((x): x is string => typeof x === 'string'),
      named: y.number().label('Your age'),
      list: y.array(y.number()),
    })
    const got = messages(schema, {
      age: secret,
      born: secret,
      pair: ['a', 'b', secret],
      any: 42_424_242,
      named: secret,
      list: [1, secret],
    })
    expect(got).toEqual([
      'age must be a `number` type',
      'born must be a `date` type',
      'pair must have 2 items',
      'any must match the configured type',
      'Your age must be a `number` type',
      // yup 1.0 writes the index quoted: list["1"].
      expect.stringMatching(/^list\["?1"?\] must be a `number` type$/),
    ])
    for (const m of got) {
      expect(m).not.toContain(secret)
      expect(m).not.toContain('42424242')
    }
    // What yup itself says, for the record: the value is in it.
    expect(() => schema.validateSync({ age: secret })).toThrow(secret)
  })

  it('keeps a message written in the schema, even one that prints the value', () => {
    const schema = y.object({
      a: y.number().typeError('a needs digits'),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a yup message template
      b: y.number().typeError('${path} got ${value}'),
      c: y.string().min(3, 'too short'),
    })
    expect(messages(schema, { a: 'x', b: 'y', c: 'z' })).toEqual([
      'a needs digits',
      'b got NaN',
      'too short',
    ])
  })

  // yup exports its locale from 1.1 (1.0.0's has the same three, read in its source).
  it.runIf('defaultLocale' in y)(
    'has no other default message in yup’s locale that prints the value',
    () => {
      // A guard for yup updates: every default that interpolates `${value}` / `${originalValue}` or
      // is a function (and may print anything) must be one the adapter replaces, or listed here.
      const replaced = ['mixed.notType', 'tuple.notType']
      // boolean.isValue's `value` is the expected true/false (the test's own param), not the input.
      const expectedOnly = ['boolean.isValue']
      const printing: string[] = []
      for (const [group, entries] of Object.entries(y.defaultLocale)) {
        for (const [name, template] of Object.entries(entries ?? {})) {
          const t = template as unknown
          if (typeof t === 'function' || /\$\{(value|originalValue)\}/.test(String(t)))
            printing.push(`${group}.${name}`)
        }
      }
      expect(printing.sort()).toEqual([...replaced, ...expectedOnly].sort())
      expect(messages(y.object({ ok: y.boolean().isTrue() }), { ok: false })).toEqual([
        'ok field must be true',
      ])
    },
  )
})
