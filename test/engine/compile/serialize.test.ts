import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { valibotAdapter } from '../../../src/adapters/valibot/index.js'
import { yupAdapter } from '../../../src/adapters/yup/index.js'
import { zodAdapter } from '../../../src/adapters/zod/index.js'
import type { SchemaAdapter } from '../../../src/engine/adapter.js'
import { compile } from '../../../src/engine/compile/compile.js'
import { compileJson } from '../../../src/engine/compile/compile-json.js'
import { defineAdapter } from '../../../src/engine/index.js'
import { schemaCase } from '../../support/arbitrary.js'
import { valibotCase } from '../../support/arbitrary-valibot.js'
import { yupCase } from '../../support/arbitrary-yup.js'
import { fuzzRuns, PER_SCHEMA } from '../../support/parity.js'

const RUNS = fuzzRuns(300)

// What a client received before: the validator's output under the envelope's key, serialised.
function expected(adapter: SchemaAdapter, input: unknown): string | undefined {
  try {
    // A library's own error path may throw on a value (yup formats a BigInt into its message).
    const r = compile(adapter).validate(input, false)
    if (r instanceof Promise || !r.success) return undefined
    return JSON.stringify({ data: r.data })
  } catch {
    return undefined
  }
}

/**
 * On every generated schema and input: where the writer answers, its text is byte for byte the
 * JSON of the validator's output (so nothing the schema strips appears), and it answers on a good
 * share of accepted inputs (else the property would prove nothing).
 */
function assertWriterParity<C extends { label: string; input: fc.Arbitrary<unknown> }>(
  cases: fc.Arbitrary<C>,
  adapterOf: (c: C) => SchemaAdapter,
  minShare: number,
): void {
  let accepted = 0
  let written = 0
  fc.assert(
    fc.property(
      cases.chain((c) =>
        fc.tuple(
          fc.constant(Object.assign(c, { [fc.toStringMethod]: () => c.label })),
          fc.array(c.input, { minLength: PER_SCHEMA, maxLength: PER_SCHEMA }),
        ),
      ),
      ([c, inputs]) => {
        const adapter = adapterOf(c)
        const write = compileJson(adapter)
        for (const input of inputs) {
          const want = expected(adapter, input)
          const got = write?.(input, 'data')
          if (want !== undefined) accepted++
          if (got === undefined) continue
          written++
          expect(`{"data":${got}}`, c.label).toBe(want)
        }
      },
    ),
    { numRuns: RUNS },
  )
  expect(written).toBeGreaterThan(accepted * minShare)
}

describe('compileJson', () => {
  it(`writes the validator's output as JSON.stringify does (zod, ${RUNS * PER_SCHEMA} pairs)`, () => {
    assertWriterParity(schemaCase, (c) => zodAdapter(c.schema), 0.5)
  }, 120_000)

  it(`writes the validator's output as JSON.stringify does (valibot, ${RUNS * PER_SCHEMA} pairs)`, () => {
    assertWriterParity(valibotCase, (c) => valibotAdapter(c.schema as never), 0.4)
  }, 120_000)

  it(`writes the validator's output as JSON.stringify does (yup, ${RUNS * PER_SCHEMA} pairs)`, () => {
    assertWriterParity(yupCase, (c) => yupAdapter(c.schema), 0.3)
  }, 120_000)

  const Hostile = z.object({
    '"': z.string(),
    '\u2028': z.string(),
    '10': z.number(),
    '2': z.number(),
    '': z.boolean(),
    nested: z.object({ '</script>': z.string() }),
  })

  it('escapes hostile key names and values as JSON.stringify does, and drops undeclared keys', () => {
    const input = JSON.parse(
      '{"\\"":"\\u2028\\ud800","\\u2028":"\\udc00x","\\ud800":"é😀","10":1,"2":-0,"":true,"__proto__":{"x":1},"nested":{"</script>":"\\u0000","constructor":"c"},"toJSON":"t","secret":"s"}',
    )
    const got = compileJson(zodAdapter(Hostile))?.(input, 'data')
    expect(got).toBeDefined()
    expect(got).toBe(
      JSON.stringify(
        (compile(zodAdapter(Hostile)).validate(input, false) as never as { data: unknown }).data,
      ),
    )
    expect(got).not.toContain('secret')
    expect(got).not.toContain('__proto__')
    expect(got).not.toContain('constructor')
    // Index keys first, ascending, as an object's own keys are written.
    expect(got!.indexOf('"2":')).toBeLessThan(got!.indexOf('"10":'))
    expect(got!.indexOf('"10":')).toBeLessThan(got!.indexOf('"\\"":'))
  })

  it('leaves a declared __proto__ or toJSON key to the builder, whose output it serialises', () => {
    const str = { kind: 'string', coerce: false, lengthUnit: 'utf16', checks: [], safety: 'exact' }
    const prop = (key: string, value: unknown) => ({
      key,
      value,
      presence: 'required',
      outputOptional: false,
    })
    const inner = {
      kind: 'object',
      properties: [prop('a', str)],
      unknownKeys: 'strip',
      safety: 'exact',
    }
    // zod makes a `__proto__` key native; an adapter may still hand one over.
    const adapter = defineAdapter({
      library: 'hand-written',
      schema: {},
      ir: {
        kind: 'object',
        properties: [prop('__proto__', inner), prop('b', str)],
        unknownKeys: 'strip',
        safety: 'exact',
      } as never,
      async: false,
      parse: (input: unknown) => ({ success: true as const, data: input }),
    })
    const stripped = (a: SchemaAdapter, input: unknown) => {
      const r = compile(a).validate(input, false)
      return r instanceof Promise || !r.success ? undefined : JSON.stringify(r.data)
    }
    const input = JSON.parse('{"__proto__":{"a":"x","z":1},"b":"y"}')
    expect(compileJson(adapter)?.(input, 'data')).toBe(stripped(adapter, input))
    expect(compileJson(adapter)?.(input, 'data')).toBe('{"b":"y"}')
    const ToJson = zodAdapter(z.object({ toJSON: z.unknown(), b: z.string() }))
    const withToJson = { b: 'y', toJSON: () => 'replaced' }
    expect(compileJson(ToJson)?.(withToJson, 'data')).toBe(stripped(ToJson, withToJson))
    expect(compileJson(ToJson)?.(withToJson, 'data')).toBe('"replaced"')
  })

  it('calls toJSON once with the key JSON.stringify gives it', () => {
    const keys: string[] = []
    const stamp = {
      toJSON: (key: string) => {
        keys.push(key)
        return `at ${key}`
      },
    }
    const Page = z.object({ items: z.array(z.unknown()), meta: z.unknown(), when: z.date() })
    const got = compileJson(zodAdapter(Page))?.(
      { items: [1, stamp], meta: stamp, when: new Date(86_400_000) },
      'data',
    )
    expect(got).toBe('{"items":[1,"at 1"],"meta":"at meta","when":"1970-01-02T00:00:00.000Z"}')
    expect(keys).toEqual(['1', 'meta'])
  })

  it('leaves a value JSON.stringify throws on, or a mismatch, to the slower path', () => {
    const Any = z.object({ v: z.unknown() })
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    const write = compileJson(zodAdapter(Any))!
    expect(write({ v: 1n }, 'data')).toBeUndefined()
    expect(write({ v: cycle }, 'data')).toBeUndefined()
    expect(compileJson(zodAdapter(z.object({ a: z.string() })))?.({ a: 1 }, 'data')).toBeUndefined()
    expect(
      compileJson(zodAdapter(z.object({ a: z.string() })))?.(undefined, 'data'),
    ).toBeUndefined()
  })

  it('has no writer for a schema only its library can run', () => {
    expect(compileJson(zodAdapter(z.string().refine((s) => s.length > 1)))).toBeUndefined()
  })
})

describe('compileJson under a value that changes as it is read', () => {
  it('never writes an object where the check saw a string (a getter that changes type)', () => {
    const write = compileJson(zodAdapter(z.object({ id: z.number(), name: z.string() })))!
    // The getter answers a string to its first `k` reads, then an object whose text is JSON.
    for (let k = 0; k < 8; k++) {
      let reads = 0
      const input = {
        id: 1,
        get name(): unknown {
          reads++
          return reads <= k ? 'a' : { toString: () => 'x","admin":true,"y":"' }
        },
      }
      expect(write(input, 'data') ?? '', `after ${k} reads`).not.toContain('admin')
    }
  })
})
