import fc from 'fast-check'
import * as v from 'valibot'
import { valibotHasToNumber } from './peer-features.js'

/** A generated valibot schema with an arbitrary of inputs for it: valid ones and near misses. */
export interface ValibotCase {
  readonly schema: v.GenericSchema
  readonly input: fc.Arbitrary<unknown>
  readonly label: string
}

/** Strings that hit formats, trimming, case, UTF-16 vs code-point lengths and coercion. */
export const strings = [
  '',
  'a',
  'abc',
  'ABC',
  ' x ',
  'a@b.co',
  ' A@B.CO ',
  'foo@bar',
  '123e4567-e89b-12d3-a456-426614174000',
  'http://x.com',
  ' https://y.org/a ',
  '192.168.0.1',
  '2024-01-01T00:00',
  '😀😀',
  '😀',
  'é',
  '12',
  ' 5 ',
  '1e3',
  '-0',
  '0x10',
  'true',
  'false',
  '1',
  '0',
  'zzz',
  'bab',
  'a\u0000',
]

export const numbers = [
  0,
  -0,
  1,
  2,
  3,
  -1,
  0.1,
  0.3,
  0.5,
  1.5,
  10,
  99,
  100,
  101,
  2 ** 31,
  2 ** 53,
  -(2 ** 53),
  1e21,
  NaN,
  Infinity,
  -Infinity,
]

/** Values of every type, for near misses anywhere. */
export const anything: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(undefined, null, true, false, 0, -0, 1, -1, 1.5, NaN, Infinity, 2 ** 53, 1e21),
  fc.constantFrom(...strings),
  fc.constantFrom([], {}, [1], { a: 1 }, ['a'], 1n, new Date(0)),
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -5, max: 105 }),
)

export const mix = (...arbs: fc.Arbitrary<unknown>[]) =>
  fc.oneof(
    { arbitrary: arbs[0]!, weight: 3 },
    ...arbs.slice(1).map((a) => ({ arbitrary: a, weight: 1 })),
    { arbitrary: anything, weight: 1 },
  )

const pick = <T>(...xs: T[]) => fc.constantFrom(...xs)

type StringSchema = v.GenericSchema<string, string>

const stringActions: Record<string, () => v.GenericPipeItem<string, string, v.BaseIssue<unknown>>> =
  {
    min2: () => v.minLength(2),
    max3: () => v.maxLength(3),
    len3: () => v.length(3),
    nonEmpty: () => v.nonEmpty(),
    regex: () => v.regex(/^[a-z]+$/),
    starts: () => v.startsWith('a'),
    ends: () => v.endsWith('c'),
    includes: () => v.includes('b'),
    email: () => v.email(),
    uuid: () => v.uuid(),
    url: () => v.url(),
    ipv4: () => v.ipv4(),
    isoDateTime: () => v.isoDateTime(),
    digits: () => v.digits(),
    graphemes: () => v.maxGraphemes(1),
    value: () => v.value('abc'),
    trim: () => v.trim(),
    toLower: () => v.toLowerCase(),
    toUpper: () => v.toUpperCase(),
    check: () => v.check((s: string) => s !== 'abc', 'not abc'),
  }

const stringCase: fc.Arbitrary<ValibotCase> = fc
  .uniqueArray(pick(...Object.keys(stringActions)), { maxLength: 3 })
  .map((names) => {
    const actions = names.map((n) => stringActions[n]!())
    const schema = (
      actions.length === 0 ? v.string() : v.pipe(v.string(), ...(actions as []))
    ) as StringSchema
    return {
      schema,
      input: mix(fc.constantFrom(...strings), fc.string({ maxLength: 5, unit: 'grapheme' })),
      label: `string[${names.join(',')}]`,
    }
  })

const numberActions: Record<string, () => v.GenericPipeItem<number, number, v.BaseIssue<unknown>>> =
  {
    int: () => v.integer(),
    safe: () => v.safeInteger(),
    finite: () => v.finite(),
    min0: () => v.minValue(0),
    max100: () => v.maxValue(100),
    gt1: () => v.gtValue(1),
    lt10: () => v.ltValue(10),
    mul2: () => v.multipleOf(2),
    mul01: () => v.multipleOf(0.1),
    mul05: () => v.multipleOf(0.5),
  }

const numberCase: fc.Arbitrary<ValibotCase> = fc
  .uniqueArray(pick(...Object.keys(numberActions)), { maxLength: 3 })
  .map((names) => {
    const actions = names.map((n) => numberActions[n]!())
    return {
      schema: actions.length === 0 ? v.number() : v.pipe(v.number(), ...(actions as [])),
      input: mix(
        fc.constantFrom(...numbers),
        fc.double(),
        fc.integer({ min: -3, max: 12 }),
        fc.constantFrom('7', ''),
      ),
      label: `number[${names.join(',')}]`,
    }
  })

const leafCase: fc.Arbitrary<ValibotCase> = fc.oneof(
  { arbitrary: stringCase, weight: 4 },
  { arbitrary: numberCase, weight: 3 },
  fc.constantFrom<ValibotCase>(
    { schema: v.boolean(), input: mix(fc.boolean()), label: 'boolean' },
    {
      schema: v.pipe(v.bigint(), v.minValue(0n)),
      input: mix(fc.constantFrom(1n, -1n, 0n)),
      label: 'bigint',
    },
    { schema: v.null(), input: mix(fc.constant(null)), label: 'null' },
    { schema: v.undefined(), input: mix(fc.constant(undefined)), label: 'undefined' },
    { schema: v.nan(), input: mix(fc.constant(NaN)), label: 'nan' },
    { schema: v.unknown(), input: anything, label: 'unknown' },
    { schema: v.any(), input: anything, label: 'any' },
    { schema: v.never(), input: anything, label: 'never' },
    { schema: v.literal('a'), input: mix(fc.constantFrom('a', 'b')), label: 'literal' },
    { schema: v.literal(true), input: mix(fc.constantFrom(true, 'true')), label: 'literal(true)' },
    {
      schema: v.picklist(['a', 'b', 'c']),
      input: mix(fc.constantFrom('a', 'b', 'c', 'd')),
      label: 'picklist',
    },
    {
      schema: v.picklist([1, 2, 3]),
      input: mix(fc.constantFrom(1, 2, '1')),
      label: 'picklist(num)',
    },
    {
      schema: v.enum({ A: 'a', B: 2 }),
      input: mix(fc.constantFrom('a', 2, 'A', 'B')),
      label: 'enum',
    },
    {
      schema: v.pipe(v.date(), v.minValue(new Date(0))),
      input: mix(fc.constantFrom(new Date(0), new Date(-1), new Date(Number.NaN), new Date(1e12))),
      label: 'date',
    },
    {
      schema: v.pipe(
        v.string(),
        v.transform((s) => s.length),
      ),
      input: mix(fc.constantFrom(...strings)),
      label: 'transform',
    },
    // toNumber() is valibot 1.2's (test/support/peer-features.ts).
    ...(valibotHasToNumber
      ? [
          {
            schema: v.pipe(v.string(), v.toNumber(), v.number(), v.integer(), v.minValue(1)),
            input: mix(fc.constantFrom('12', '', ' 5 ', '1e2', 'x', '0', '1.5', 'Infinity', 3)),
            label: 'toNumber',
          },
          {
            schema: v.pipe(v.string(), v.trim(), v.toNumber(), v.maxValue(10)),
            input: mix(fc.constantFrom('12', '', ' 5 ', '-Infinity', '0x10', 3)),
            label: 'trim.toNumber',
          },
        ]
      : []),
    {
      schema: v.fallback(v.string(), 'fb'),
      input: mix(fc.constantFrom(...strings)),
      label: 'fallback',
    },
  ),
)

const keys = ['a', 'b', 'c', 'id', 'name']

function wrapField(c: ValibotCase, w: string, dflt: unknown): v.GenericSchema {
  const s = c.schema
  switch (w) {
    case 'opt':
      return v.optional(s)
    case 'def':
      return v.optional(s, dflt as never)
    case 'fnDef':
      return v.optional(s, () => dflt as never)
    case 'nul':
      return v.nullable(s)
    case 'nulDef':
      return v.nullable(s, dflt as never)
    case 'nsh':
      return v.nullish(s)
    case 'nshDef':
      return v.nullish(s, dflt as never)
    case 'exact':
      return v.exactOptional(s)
    default:
      return s
  }
}

function objectCase(tie: (k: string) => fc.Arbitrary<ValibotCase>): fc.Arbitrary<ValibotCase> {
  return fc
    .record({
      fields: fc.uniqueArray(
        fc.tuple(
          fc.constantFrom(...keys),
          tie('node'),
          pick('req', 'req', 'opt', 'def', 'fnDef', 'nul', 'nulDef', 'nsh', 'nshDef', 'exact'),
        ),
        { maxLength: 4, selector: (f) => f[0] },
      ),
      mode: pick('strip', 'strip', 'strict', 'loose', 'rest'),
    })
    .chain(({ fields, mode }) =>
      fc.tuple(...fields.map(([, c]) => c.input)).map((defaults) => ({ fields, mode, defaults })),
    )
    .map(({ fields, mode, defaults }) => {
      const shape: Record<string, v.GenericSchema> = {}
      fields.forEach(([k, c, w], i) => {
        shape[k] = wrapField(c, w, defaults[i])
      })
      const schema =
        mode === 'strict'
          ? v.strictObject(shape)
          : mode === 'loose'
            ? v.looseObject(shape)
            : mode === 'rest'
              ? v.objectWithRest(shape, v.number())
              : v.object(shape)
      const present: Record<string, fc.Arbitrary<unknown>> = {}
      for (const [k, c] of fields)
        present[k] = fc.oneof({ arbitrary: c.input, weight: 5 }, fc.constant(null))
      const input = fc
        .record({
          own: fc.record(present, { requiredKeys: [] }),
          extra: fc.option(
            fc.record(
              { x: anything, extra: fc.integer(), constructor: fc.integer(), prototype: anything },
              { requiredKeys: [] },
            ),
            { nil: undefined },
          ),
          full: fc.boolean(),
        })
        .chain(({ own, extra, full }) =>
          full
            ? fc.record(present).map((o) => ({ ...o, ...extra }))
            : fc.constant({ ...own, ...extra }),
        )
      return {
        schema,
        input: fc.oneof({ arbitrary: input, weight: 6 }, { arbitrary: anything, weight: 1 }),
        label: `object:${mode}{${fields.map(([k, c, w]) => `${k}:${w}:${c.label}`).join(', ')}}`,
      }
    })
}

/** Random valibot schemas over every supported kind, nested, each with inputs for it. */
export const valibotCase: fc.Arbitrary<ValibotCase> = fc.letrec<{ node: ValibotCase }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 3, depthSize: 'small', withCrossShrink: true },
    { arbitrary: leafCase, weight: 5 },
    { arbitrary: objectCase(tie as never), weight: 4 },
    tie('node').map((c) => ({
      schema: v.pipe(v.array(c.schema), v.maxLength(3)),
      input: mix(fc.array(c.input, { maxLength: 4 })),
      label: `array(${c.label})`,
    })),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => ({
      schema: v.union([a.schema, b.schema]),
      input: fc.oneof(a.input, b.input),
      label: `union(${a.label} | ${b.label})`,
    })),
    fc.tuple(tie('node'), tie('node'), fc.boolean()).map(([a, b, shared]) => ({
      schema: v.variant('kind', [
        v.object({ kind: v.literal('a'), v: a.schema }),
        v.object({ kind: shared ? v.literal('a') : v.picklist(['b', 'c']), w: b.schema }),
      ]),
      input: fc.oneof(
        fc.record(
          { kind: fc.constantFrom('a', 'b', 'c', 'd'), v: a.input, w: b.input },
          { requiredKeys: ['kind'] },
        ),
        anything,
      ),
      label: `variant${shared ? '(shared)' : ''}(${a.label} | ${b.label})`,
    })),
    fc.tuple(objectCase(tie as never), objectCase(tie as never)).map(([a, b]) => ({
      schema: v.intersect([a.schema, b.schema]),
      input: fc
        .tuple(a.input, b.input)
        .map(([x, y]) =>
          typeof x === 'object' && typeof y === 'object'
            ? { ...(x as object), ...(y as object) }
            : x,
        ),
      label: `intersect(${a.label} & ${b.label})`,
    })),
    fc
      .tuple(tie('node'), tie('node'), pick('tuple', 'strict', 'loose', 'rest'))
      .map(([a, b, mode]) => ({
        schema:
          mode === 'tuple'
            ? v.tuple([a.schema, b.schema])
            : mode === 'strict'
              ? v.strictTuple([a.schema, b.schema])
              : mode === 'loose'
                ? v.looseTuple([a.schema, b.schema])
                : v.tupleWithRest([a.schema], b.schema),
        input: mix(
          fc.array(fc.oneof(a.input, b.input), { maxLength: 3 }),
          fc.tuple(a.input, b.input),
        ),
        label: `${mode}Tuple(${a.label}, ${b.label})`,
      })),
    tie('node').map((c) => ({
      schema: v.record(v.pipe(v.string(), v.minLength(1)), c.schema),
      input: mix(
        fc.dictionary(
          fc.constantFrom('', 'k', 'a', '__proto__', 'constructor', 'prototype'),
          c.input,
          { maxKeys: 3 },
        ),
      ),
      label: `record(${c.label})`,
    })),
    fc
      .tuple(tie('node'), pick('optional', 'nullable', 'nullish', 'check', 'transform', 'fallback'))
      .map(([c, w]) => {
        const s = c.schema
        const schema =
          w === 'optional'
            ? v.optional(s)
            : w === 'nullable'
              ? v.nullable(s)
              : w === 'nullish'
                ? v.nullish(s)
                : w === 'check'
                  ? v.pipe(
                      s,
                      // Never throws: whether a check runs after an earlier issue is valibot's
                      // abortEarly choice, and a throwing check is a programmer error either way.
                      v.check((x) => x !== 'abc', 'not abc'),
                    )
                  : w === 'transform'
                    ? v.pipe(
                        s,
                        v.transform((x) => [x]),
                      )
                    : v.fallback(s, null as never)
        return { schema, input: c.input, label: `${w}(${c.label})` }
      }),
    fc.constant(tree()),
  ),
})).node

function tree(): ValibotCase {
  type Tree = { v: number; children?: Tree[] | undefined }
  const Tree: v.GenericSchema<Tree> = v.object({
    v: v.pipe(v.number(), v.integer()),
    children: v.optional(v.array(v.lazy(() => Tree))),
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
