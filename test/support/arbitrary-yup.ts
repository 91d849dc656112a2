import fc from 'fast-check'
import * as y from 'yup'
import { anything, mix, numbers, strings } from './arbitrary-valibot.js'
import { yupHasDatetime, yupHasExact } from './peer-features.js'

/** A generated yup schema with an arbitrary of inputs for it: valid ones and near misses. */
export interface YupCase {
  readonly schema: y.AnySchema
  readonly input: fc.Arbitrary<unknown>
  readonly label: string
}

const pick = <T>(...xs: T[]) => fc.constantFrom(...xs)

/** An array with a hole at `at` (yup's map keeps holes, an undefined item is not one). */
function sparse(items: unknown[], at: number): unknown[] {
  const out = [...items]
  delete out[at]
  return out
}

const stringTests: Record<string, (s: y.StringSchema<any>) => y.StringSchema<any>> = {
  min2: (s) => s.min(2),
  max3: (s) => s.max(3),
  len3: (s) => s.length(3),
  required: (s) => s.required(),
  regex: (s) => s.matches(/^[a-z]+$/),
  regexg: (s) => s.matches(/a/g),
  regexEmpty: (s) => s.matches(/^[a-z]+$/, { excludeEmptyString: true }),
  email: (s) => s.email(),
  url: (s) => s.url(),
  uuid: (s) => s.uuid(),
  datetime: (s) => s.datetime(),
  trim: (s) => s.trim(),
  lower: (s) => s.lowercase(),
  upper: (s) => s.uppercase(),
  oneOf: (s) => s.oneOf(['a', 'abc', 'ABC']),
  strict: (s) => s.strict(),
  test: (s) => s.test('not-abc', 'not abc', (v) => v !== 'abc'),
  transform: (s) => s.transform((v) => (typeof v === 'string' ? `${v}!` : v)),
}
// datetime() is yup 1.4's (test/support/peer-features.ts).
if (!yupHasDatetime) delete stringTests.datetime

const stringCase: fc.Arbitrary<YupCase> = fc
  .uniqueArray(pick(...Object.keys(stringTests)), { maxLength: 3 })
  .map((names) => ({
    schema: names.reduce((s, n) => stringTests[n]!(s), y.string()),
    input: mix(
      fc.constantFrom(...strings),
      fc.string({ maxLength: 5, unit: 'grapheme' }),
      fc.constantFrom(5, 1.5, true, null),
    ),
    label: `string[${names.join(',')}]`,
  }))

const numberTests: Record<string, (s: y.NumberSchema<any>) => y.NumberSchema<any>> = {
  int: (s) => s.integer(),
  min0: (s) => s.min(0),
  max100: (s) => s.max(100),
  more1: (s) => s.moreThan(1),
  less10: (s) => s.lessThan(10),
  positive: (s) => s.positive(),
  required: (s) => s.required(),
  oneOf: (s) => s.oneOf([1, 2, 3]),
  strict: (s) => s.strict(),
  round: (s) => s.round(),
}

const numeralChars = [
  ' ',
  '\t',
  '\n',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '0',
  '1',
  '5',
  '.',
  '-',
  'e',
  'x',
]

const numberCase: fc.Arbitrary<YupCase> = fc
  .uniqueArray(pick(...Object.keys(numberTests)), { maxLength: 3 })
  .map((names) => ({
    schema: names.reduce((s, n) => numberTests[n]!(s), y.number()),
    input: mix(
      fc.constantFrom(...numbers),
      fc.integer({ min: -3, max: 12 }),
      fc.constantFrom('', ' 5 ', '7', 'x', '1e2', '0x10', 'Infinity', '1 000', '-0', '3.5'),
      // yup removes every whitespace character, inner ones included, before `+s`.
      fc.string({ unit: fc.constantFrom(...numeralChars), maxLength: 6 }),
    ),
    label: `number[${names.join(',')}]`,
  }))

const leafCase: fc.Arbitrary<YupCase> = fc.oneof(
  { arbitrary: stringCase, weight: 4 },
  { arbitrary: numberCase, weight: 3 },
  fc.constantFrom<YupCase>(
    {
      schema: y.boolean(),
      input: mix(fc.boolean(), fc.constantFrom('true', 'FALSE', '1', '0', 1, 0, 'yes')),
      label: 'boolean',
    },
    {
      schema: y.boolean().strict(),
      input: mix(fc.boolean(), fc.constantFrom('true', 1)),
      label: 'boolean.strict',
    },
    { schema: y.boolean().isTrue(), input: mix(fc.boolean()), label: 'boolean.isTrue' },
    { schema: y.mixed(), input: anything, label: 'mixed' },
    {
      schema: y.mixed().oneOf(['a', 1]),
      input: mix(fc.constantFrom('a', 1, '1')),
      label: 'mixed.oneOf',
    },
    {
      schema: y.date(),
      input: mix(fc.constantFrom(new Date(0), '2024-01-01', 'x', 0)),
      label: 'date',
    },
  ),
)

const keys = ['a', 'b', 'c', 'id', 'name']

function wrapField(s: y.AnySchema, w: string, dflt: unknown): y.AnySchema {
  switch (w) {
    case 'req':
      return s.required()
    case 'def':
      try {
        return s.default(dflt as never)
      } catch {
        // yup clones a static default; some generated values (a Date subclass…) cannot be cloned.
        return s.default('dflt' as never)
      }
    case 'fnDef':
      return s.default(() => dflt as never)
    case 'nul':
      return s.nullable()
    case 'defined':
      return s.defined()
    case 'notReq':
      return s.notRequired()
    default:
      return s
  }
}

function objectCase(tie: (k: string) => fc.Arbitrary<YupCase>): fc.Arbitrary<YupCase> {
  return fc
    .record({
      fields: fc.uniqueArray(
        fc.tuple(
          fc.constantFrom(...keys),
          tie('node'),
          pick('plain', 'plain', 'req', 'def', 'fnDef', 'nul', 'defined', 'notReq'),
        ),
        { maxLength: 4, selector: (f) => f[0] },
      ),
      // exact() and stripUnknown() are yup 1.5's (test/support/peer-features.ts).
      mode: yupHasExact
        ? pick('plain', 'plain', 'noUnknown', 'stripUnknown', 'exact', 'strict')
        : pick('plain', 'plain', 'noUnknown', 'strict'),
    })
    .chain(({ fields, mode }) =>
      fc.tuple(...fields.map(([, c]) => c.input)).map((defaults) => ({ fields, mode, defaults })),
    )
    .map(({ fields, mode, defaults }) => {
      const shape: Record<string, y.AnySchema> = {}
      fields.forEach(([k, c, w], i) => {
        shape[k] = wrapField(c.schema, w, defaults[i])
      })
      const base = y.object(shape)
      const schema =
        mode === 'noUnknown'
          ? base.noUnknown()
          : mode === 'stripUnknown'
            ? base.stripUnknown()
            : mode === 'exact'
              ? base.exact()
              : mode === 'strict'
                ? base.strict()
                : base
      const present: Record<string, fc.Arbitrary<unknown>> = {}
      for (const [k, c] of fields)
        present[k] = fc.oneof({ arbitrary: c.input, weight: 5 }, fc.constant(null))
      const input = fc
        .record({
          own: fc.record(present, { requiredKeys: [] }),
          // Undeclared keys at this depth, one of them an object of its own: every object of a
          // generated input carries some, so stripping is tested at every depth.
          extra: fc.option(
            fc.record(
              { x: anything, extra: fc.integer(), deep: fc.record({ secret: fc.string() }) },
              { requiredKeys: [] },
            ),
            { nil: undefined, freq: 4 },
          ),
          full: fc.boolean(),
          first: fc.boolean(),
        })
        .chain(({ own, extra, full, first }) =>
          (full ? fc.record(present) : fc.constant(own)).map((o) =>
            first ? { ...extra, ...o } : { ...o, ...extra },
          ),
        )
      return {
        schema,
        input: fc.oneof({ arbitrary: input, weight: 6 }, { arbitrary: anything, weight: 1 }),
        label: `object:${mode}{${fields.map(([k, c, w]) => `${k}:${w}:${c.label}`).join(', ')}}`,
      }
    })
}

/** Random yup schemas over the kinds the adapter compiles (and some it leaves to yup), nested. */
export const yupCase: fc.Arbitrary<YupCase> = fc.letrec<{ node: YupCase }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 3, depthSize: 'small', withCrossShrink: true },
    { arbitrary: leafCase, weight: 5 },
    { arbitrary: objectCase(tie as never), weight: 4 },
    fc.tuple(tie('node'), pick('plain', 'max3', 'min1', 'len2')).map(([c, w]) => {
      const a = y.array(c.schema)
      return {
        schema: w === 'max3' ? a.max(3) : w === 'min1' ? a.min(1) : w === 'len2' ? a.length(2) : a,
        input: mix(
          fc.array(c.input, { maxLength: 4 }),
          fc.constantFrom(sparse([1, 0, 2], 1), sparse([0, 'a'], 0)),
        ),
        label: `array.${w}(${c.label})`,
      }
    }),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => ({
      schema: y.object({
        k: y.string(),
        v: a.schema.when('k', ([k]: unknown[]) => (k === 'x' ? b.schema : a.schema)),
      }),
      input: fc.record({ k: fc.constantFrom('x', 'y'), v: fc.oneof(a.input, b.input) }),
      label: `when(${a.label} | ${b.label})`,
    })),
    fc.constant(tree()),
  ),
})).node

function tree(): YupCase {
  const Tree: y.AnySchema = y.object({
    v: y.number().integer().required(),
    children: y.array(y.lazy(() => Tree)),
  })
  const { t } = fc.letrec<{ t: unknown }>((tie) => ({
    t: fc.oneof(
      { depthSize: 'small' },
      fc.record(
        { v: fc.integer({ min: -2, max: 2 }), extra: fc.boolean() },
        { requiredKeys: ['v'] },
      ),
      fc.record({
        v: fc.oneof(fc.integer(), fc.constant('1')),
        children: fc.array(tie('t'), { maxLength: 3 }),
      }),
    ),
  }))
  return { schema: Tree, input: t, label: 'tree' }
}
