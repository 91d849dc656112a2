import Ajv2020 from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { checkSync } from 'recheck'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import * as y from 'yup'
import * as z from 'zod'
import { valibotAdapter } from '../../../src/adapters/valibot/index.js'
import { yupAdapter } from '../../../src/adapters/yup/index.js'
import { zodAdapter } from '../../../src/adapters/zod/index.js'
import type { SchemaAdapter } from '../../../src/engine/adapter.js'
import { type JsonSchema, toJsonSchema } from '../../../src/engine/index.js'
import {
  BIGINT_PATTERN,
  DATE_PATTERN,
  YUP_BOOLEAN_PATTERN,
} from '../../../src/engine/json-schema/json-schema-coerced.js'
import { recheckParams } from '../../support/known-vulnerable.js'
import { fuzzRuns } from '../../support/parity.js'
import { valibotHasToNumber } from '../../support/peer-features.js'

const RUNS = fuzzRuns(300)

/** A JSON body's input schema (`coercion: 'json'`). */
const body = (a: SchemaAdapter) => toJsonSchema(a, { io: 'input', coercion: 'json' })

/** Whether the library (the adapter's own parser) accepts a value. */
function accepts(adapter: SchemaAdapter, value: unknown): boolean {
  const r = adapter.parse(value)
  if (r instanceof Promise) throw new Error('expected a synchronous parse')
  return r.success
}

// What clients write. Decimal numerals with at most 15 integer digits (the documented forms);
// a negative zero ("-0.00") is no common form of a non-negative number.
const integerText = fc.integer({ min: -(10 ** 15) + 1, max: 10 ** 15 - 1 }).map(String)
const decimalText = fc
  .tuple(integerText, fc.stringMatching(/^\d{1,6}$/))
  .map(([i, f]) => `${i}.${f}`)
  .filter((s) => !/^-0\.0*$/.test(s))
const numberText = fc.oneof(integerText, decimalText)
const booleanText = fc.constantFrom('true', 'false', '1', '0', 'TRUE', 'False', 'tRuE', 'FALSE')
// Dates as JavaScript, Python and Go write them: a full date-time, milli- or nanoseconds, a zone
// or none (local time), a date alone.
const dateText = fc
  .tuple(
    fc.date({ min: new Date('1000-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }),
    fc.constantFrom('iso', 'date', 'minutes', 'seconds', 'nanos', 'offset'),
  )
  .map(([d, form]) => {
    const iso = d.toISOString()
    if (form === 'date') return iso.slice(0, 10)
    if (form === 'minutes') return iso.slice(0, 16)
    if (form === 'seconds') return `${iso.slice(0, 19)}Z`
    if (form === 'nanos') return `${iso.slice(0, 23)}456789Z`
    if (form === 'offset') return `${iso.slice(0, 19)}+02:00`
    return iso
  })

/** One converting leaf, with what a client sends for it. */
interface Leaf {
  readonly label: string
  readonly adapter: SchemaAdapter
  /** Values of the declared JSON type, sent as they are. */
  readonly typed?: fc.Arbitrary<unknown>
  /** The strings clients write for such a value. */
  readonly common: fc.Arbitrary<string>
  /**
   * Whether every string the pattern matches must be taken; false where a bound the pattern
   * cannot say (`positive`, `max`) rejects some of them (documented beside it as `minimum`, …).
   */
  readonly sound: boolean
}

const finite = fc.double({ noNaN: true, noDefaultInfinity: true })
const leaves: Leaf[] = [
  {
    label: 'zod coerce.number()',
    adapter: zodAdapter(z.coerce.number()),
    typed: finite,
    common: numberText,
    sound: true,
  },
  {
    label: 'zod coerce.number().int()',
    adapter: zodAdapter(z.coerce.number().int()),
    typed: fc.integer(),
    common: integerText,
    sound: true,
  },
  {
    label: 'zod coerce.number().int().min(0)',
    adapter: zodAdapter(z.coerce.number().int().min(0)),
    typed: fc.integer(),
    common: integerText,
    sound: true,
  },
  {
    label: 'zod coerce.number().positive().max(100)',
    adapter: zodAdapter(z.coerce.number().positive().max(100)),
    typed: finite,
    // Mostly values near the bounds, so that about 37 % are taken (the check below wants 1 in 8).
    common: fc.oneof(
      { arbitrary: fc.integer({ min: -50, max: 150 }).map(String), weight: 3 },
      { arbitrary: numberText, weight: 1 },
    ),
    sound: false,
  },
  {
    label: 'zod coerce.bigint()',
    adapter: zodAdapter(z.coerce.bigint()),
    typed: fc.integer(),
    common: integerText,
    sound: true,
  },
  {
    label: 'zod coerce.boolean()',
    adapter: zodAdapter(z.coerce.boolean()),
    typed: fc.boolean(),
    common: fc.oneof(booleanText, fc.string()),
    sound: true,
  },
  {
    label: 'zod coerce.date()',
    adapter: zodAdapter(z.coerce.date()),
    common: dateText,
    sound: true,
  },
  {
    label: 'zod coerce.string().min(1)',
    adapter: zodAdapter(z.coerce.string().min(1)),
    typed: fc.oneof(fc.string({ minLength: 1 }), fc.integer(), fc.boolean()),
    common: fc.string({ minLength: 1 }),
    sound: true,
  },
  {
    label: 'zod string().pipe(coerce.number())',
    adapter: zodAdapter(z.string().pipe(z.coerce.number())),
    common: numberText,
    sound: true,
  },
  {
    label: 'yup number()',
    adapter: yupAdapter(y.number()),
    typed: finite,
    common: numberText,
    sound: true,
  },
  {
    label: 'yup number().integer().min(0)',
    adapter: yupAdapter(y.number().integer().min(0)),
    typed: fc.integer(),
    common: integerText,
    sound: true,
  },
  {
    label: 'yup number().integer().lessThan(10)',
    adapter: yupAdapter(y.number().integer().lessThan(10)),
    typed: fc.integer(),
    common: integerText,
    sound: false,
  },
  {
    label: 'yup boolean()',
    adapter: yupAdapter(y.boolean()),
    typed: fc.boolean(),
    common: booleanText,
    sound: true,
  },
  { label: 'yup date()', adapter: yupAdapter(y.date()), common: dateText, sound: true },
]
if (valibotHasToNumber) {
  leaves.push(
    {
      label: 'valibot pipe(string(), toNumber())',
      adapter: valibotAdapter(v.pipe(v.string(), v.toNumber())),
      common: numberText,
      sound: true,
    },
    {
      label: 'valibot pipe(string(), toNumber(), integer(), minValue(0))',
      adapter: valibotAdapter(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(0))),
      common: integerText,
      sound: true,
    },
  )
}

const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, validateFormats: false })

/** The patterns a schema requires of a string (`pattern`, and those under `allOf`). */
const patternsOf = (s: JsonSchema): string[] => [
  ...(typeof s.pattern === 'string' ? [s.pattern] : []),
  ...((s.allOf as JsonSchema[] | undefined) ?? []).flatMap(patternsOf),
]

describe('coercedInput: a converting leaf in a JSON body', () => {
  it.each(leaves.map((l) => [l.label, l] as const))(
    '%s: keeps a real type, and documents the strings the library takes',
    (_, leaf) => {
      const schema = body(leaf.adapter)
      expect(schema).not.toEqual({})
      expect(schema.type, 'a declared type').toBeDefined()
      const check = ajv.compile(schema)
      const message = (x: unknown) => `${JSON.stringify(x)} against ${JSON.stringify(schema)}`
      // Values of the declared type the library takes are documented.
      if (leaf.typed)
        fc.assert(
          fc.property(leaf.typed, (x) => {
            if (accepts(leaf.adapter, x)) expect(check(x), message(x)).toBe(true)
          }),
          { numRuns: RUNS },
        )
      // The forms clients write: the library takes them, and the docs say so.
      let taken = 0
      fc.assert(
        fc.property(leaf.common, (s) => {
          if (!accepts(leaf.adapter, s)) return
          taken++
          expect(check(s), message(s)).toBe(true)
        }),
        { numRuns: RUNS },
      )
      expect(taken).toBeGreaterThan(RUNS / 8)
      // Every string the patterns match, the library takes.
      const patterns = patternsOf(schema)
      if (leaf.sound && patterns.length > 0) {
        const matching = fc
          .stringMatching(new RegExp(patterns[0]!, 'u'))
          .filter((s) => patterns.every((p) => new RegExp(p, 'u').test(s)))
        fc.assert(
          fc.property(matching, (s) => {
            expect(accepts(leaf.adapter, s), `${leaf.label} takes ${JSON.stringify(s)}`).toBe(true)
          }),
          { numRuns: RUNS },
        )
      }
    },
    60_000,
  )

  it('writes the documented patterns, each linear (recheck)', () => {
    const used = new Set(leaves.flatMap((l) => patternsOf(body(l.adapter))))
    expect(used).toEqual(
      new Set([
        '^-?\\d{1,15}(?:\\.\\d+)?$',
        '^-?\\d{1,15}$',
        '^\\d{1,15}$',
        '^\\d{1,15}(?:\\.\\d+)?$',
        BIGINT_PATTERN,
        YUP_BOOLEAN_PATTERN,
        DATE_PATTERN,
      ]),
    )
    for (const p of used) expect(checkSync(p, 'u', recheckParams).status, p).toBe('safe')
  }, 60_000)
})
