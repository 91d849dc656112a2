import fc from 'fast-check'
import * as z from 'zod'

/** A generated zod schema with an arbitrary of inputs for it: valid ones and near misses. */
export interface Case {
  readonly schema: z.ZodType
  readonly input: fc.Arbitrary<unknown>
  readonly label: string
}

const strings = [
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
  '2024-01-01T00:00:00Z',
  '😀😀',
  'é',
  '12',
  ' 5 ',
  '1e3',
  '-0',
  '0x10',
  'true',
  'false',
  'zzz',
  'bab',
  'a\u0000',
]

/** Values of every type, for near misses anywhere. */
export const anything: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(undefined, null, true, false, 0, -0, 1, -1, 1.5, NaN, Infinity, 2 ** 53, 1e21),
  fc.constantFrom(...strings),
  fc.constantFrom([], {}, [1], { a: 1 }, ['a'], 1n, new Date(0)),
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -5, max: 105 }),
)

const mix = (...arbs: fc.Arbitrary<unknown>[]) =>
  fc.oneof(
    { arbitrary: arbs[0]!, weight: 3 },
    ...arbs.slice(1).map((a) => ({ arbitrary: a, weight: 1 })),
    {
      arbitrary: anything,
      weight: 1,
    },
  )

const pick = <T>(...xs: T[]) => fc.constantFrom(...xs)

const stringCase: fc.Arbitrary<Case> = fc
  .record({
    base: pick('string', 'coerce', 'email', 'uuid', 'url', 'ipv4', 'datetime'),
    checks: fc.uniqueArray(
      pick(
        'min2',
        'max3',
        'len3',
        'regex',
        'regexg',
        'starts',
        'ends',
        'includes',
        'lower',
        'upper',
        'trim',
        'toLower',
        'toUpper',
      ),
      { maxLength: 3 },
    ),
  })
  .map(({ base, checks }) => {
    let s: z.ZodString | z.ZodStringFormat | z.ZodCoercedString =
      base === 'string'
        ? z.string()
        : base === 'coerce'
          ? z.coerce.string()
          : base === 'email'
            ? z.email()
            : base === 'uuid'
              ? z.uuid()
              : base === 'url'
                ? z.url()
                : base === 'ipv4'
                  ? z.ipv4()
                  : z.iso.datetime()
    for (const c of checks) {
      if (c === 'min2') s = s.min(2)
      if (c === 'max3') s = s.max(3)
      if (c === 'len3') s = s.length(3)
      if (c === 'regex') s = s.regex(/^[a-z]+$/)
      if (c === 'regexg') s = s.regex(/a/g)
      if (c === 'starts') s = s.startsWith('a')
      if (c === 'ends') s = s.endsWith('c')
      if (c === 'includes') s = s.includes('b')
      if (c === 'lower') s = s.lowercase()
      if (c === 'upper') s = s.uppercase()
      if (c === 'trim') s = s.trim()
      if (c === 'toLower') s = s.toLowerCase()
      if (c === 'toUpper') s = s.toUpperCase()
    }
    return {
      schema: s,
      input: mix(fc.constantFrom(...strings), fc.string({ maxLength: 5, unit: 'grapheme' })),
      label: `${base}[${checks.join(',')}]`,
    }
  })

const numbers = [
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
]

const numberCase: fc.Arbitrary<Case> = fc
  .record({
    base: pick('number', 'int', 'int32', 'coerce', 'coerceInt'),
    checks: fc.uniqueArray(
      pick('min0', 'max100', 'gt1', 'lt10', 'mul2', 'mul01', 'mul05', 'positive'),
      {
        maxLength: 3,
      },
    ),
  })
  .map(({ base, checks }) => {
    let s: z.ZodNumber | z.ZodNumberFormat | z.ZodCoercedNumber =
      base === 'number'
        ? z.number()
        : base === 'int'
          ? z.int()
          : base === 'int32'
            ? z.int32()
            : base === 'coerce'
              ? z.coerce.number()
              : z.coerce.number().int()
    for (const c of checks) {
      if (c === 'min0') s = s.min(0)
      if (c === 'max100') s = s.max(100)
      if (c === 'gt1') s = s.gt(1)
      if (c === 'lt10') s = s.lt(10)
      if (c === 'mul2') s = s.multipleOf(2)
      if (c === 'mul01') s = s.multipleOf(0.1)
      if (c === 'mul05') s = s.multipleOf(0.5)
      if (c === 'positive') s = s.positive()
    }
    return {
      schema: s,
      input: mix(
        fc.constantFrom(...numbers),
        fc.double(),
        fc.integer({ min: -3, max: 12 }),
        fc.constantFrom('', ' 5 ', '7', 'x', '1e2'),
      ),
      label: `${base}[${checks.join(',')}]`,
    }
  })

const leafCase: fc.Arbitrary<Case> = fc.oneof(
  { arbitrary: stringCase, weight: 4 },
  { arbitrary: numberCase, weight: 3 },
  fc.constantFrom<Case>(
    { schema: z.boolean(), input: mix(fc.boolean()), label: 'boolean' },
    {
      schema: z.coerce.boolean(),
      input: mix(fc.constantFrom('false', '', 0, 'x')),
      label: 'coerce.boolean',
    },
    { schema: z.bigint().min(0n), input: mix(fc.constantFrom(1n, -1n, 0n)), label: 'bigint' },
    {
      schema: z.coerce.bigint(),
      input: mix(fc.constantFrom('12', '', '1.5', ' 3 ', 1.5, 2)),
      label: 'coerce.bigint',
    },
    { schema: z.null(), input: mix(fc.constant(null)), label: 'null' },
    { schema: z.undefined(), input: mix(fc.constant(undefined)), label: 'undefined' },
    { schema: z.nan(), input: mix(fc.constant(NaN)), label: 'nan' },
    { schema: z.unknown(), input: anything, label: 'unknown' },
    { schema: z.any(), input: anything, label: 'any' },
    { schema: z.never(), input: anything, label: 'never' },
    { schema: z.literal('a'), input: mix(fc.constantFrom('a', 'b')), label: 'literal' },
    {
      schema: z.literal([1, 2, true, null]),
      input: mix(fc.constantFrom(1, 2, true, null, '1')),
      label: 'literals',
    },
    {
      schema: z.enum(['a', 'b', 'c']),
      input: mix(fc.constantFrom('a', 'b', 'c', 'd')),
      label: 'enum',
    },
    {
      schema: z.date().min(new Date(0)),
      input: mix(fc.constantFrom(new Date(0), new Date(-1), new Date(Number.NaN), new Date(1e12))),
      label: 'date',
    },
    {
      schema: z.coerce.date(),
      input: mix(fc.constantFrom('2024-01-01', 'x', 0, new Date(5))),
      label: 'coerce.date',
    },
    {
      schema: z.string().pipe(z.coerce.number()),
      input: mix(fc.constantFrom('12', '', 'x', 3)),
      label: 'pipe',
    },
    {
      schema: z.templateLiteral(['id-', z.number()]),
      input: mix(fc.constantFrom('id-1', 'id-x', 'id-1.5')),
      label: 'template',
    },
    { schema: z.string().brand('Id'), input: mix(fc.constantFrom('a')), label: 'brand' },
  ),
)

const keys = ['a', 'b', 'c', 'id', 'name']

function objectCase(tie: (k: string) => fc.Arbitrary<Case>): fc.Arbitrary<Case> {
  return fc
    .record({
      fields: fc.uniqueArray(
        fc.tuple(fc.constantFrom(...keys), tie('node'), pick('req', 'opt', 'def', 'nul')),
        {
          maxLength: 4,
          selector: (f) => f[0],
        },
      ),
      mode: pick('strip', 'strip', 'strict', 'loose', 'catchall'),
    })
    .chain(({ fields, mode }) =>
      fc.tuple(...fields.map(([, c]) => c.input)).map((defaults) => ({ fields, mode, defaults })),
    )
    .map(({ fields, mode, defaults }) => {
      const shape: Record<string, z.ZodType> = {}
      fields.forEach(([k, c, w], i) => {
        shape[k] =
          w === 'opt'
            ? c.schema.optional()
            : w === 'def'
              ? c.schema.default(defaults[i] as never)
              : w === 'nul'
                ? c.schema.nullable()
                : c.schema
      })
      const schema =
        mode === 'strict'
          ? z.strictObject(shape)
          : mode === 'loose'
            ? z.looseObject(shape)
            : mode === 'catchall'
              ? z.object(shape).catchall(z.number())
              : z.object(shape)
      const present: Record<string, fc.Arbitrary<unknown>> = {}
      for (const [k, c] of fields) present[k] = c.input
      const input = fc
        .record({
          own: fc.record(present, { requiredKeys: [] }),
          extra: fc.option(fc.record({ x: anything, extra: fc.integer() }, { requiredKeys: [] }), {
            nil: undefined,
          }),
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

/** Random zod schemas over every supported kind, nested, each with inputs for it. */
export const schemaCase: fc.Arbitrary<Case> = fc.letrec<{ node: Case }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 3, depthSize: 'small', withCrossShrink: true },
    { arbitrary: leafCase, weight: 5 },
    { arbitrary: objectCase(tie as never), weight: 4 },
    tie('node').map((c) => ({
      schema: z.array(c.schema).max(3),
      input: mix(fc.array(c.input, { maxLength: 4 })),
      label: `array(${c.label})`,
    })),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => ({
      schema: z.union([a.schema, b.schema]),
      input: fc.oneof(a.input, b.input),
      label: `union(${a.label} | ${b.label})`,
    })),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => ({
      schema: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), v: a.schema }),
        z.object({ kind: z.literal('b'), w: b.schema }),
      ]),
      input: fc.oneof(
        fc.record(
          { kind: fc.constantFrom('a', 'b', 'c'), v: a.input, w: b.input },
          { requiredKeys: ['kind'] },
        ),
        anything,
      ),
      label: `disc(${a.label} | ${b.label})`,
    })),
    fc.tuple(objectCase(tie as never), objectCase(tie as never)).map(([a, b]) => ({
      schema: z.intersection(a.schema, b.schema),
      input: fc
        .tuple(a.input, b.input)
        .map(([x, y]) =>
          typeof x === 'object' && typeof y === 'object'
            ? { ...(x as object), ...(y as object) }
            : x,
        ),
      label: `and(${a.label} & ${b.label})`,
    })),
    fc.tuple(tie('node'), tie('node'), fc.boolean()).map(([a, b, rest]) => ({
      schema: rest ? z.tuple([a.schema], b.schema) : z.tuple([a.schema, b.schema]),
      input: mix(
        fc.array(fc.oneof(a.input, b.input), { maxLength: 3 }),
        fc.tuple(a.input, b.input),
      ),
      label: `tuple(${a.label}, ${b.label}${rest ? '...' : ''})`,
    })),
    tie('node').map((c) => ({
      schema: z.record(z.string().min(1), c.schema),
      input: mix(
        fc.dictionary(fc.constantFrom('', 'k', 'a', '__proto__'), c.input, { maxKeys: 3 }),
      ),
      label: `record(${c.label})`,
    })),
    tie('node').map((c) => ({
      schema: z.set(c.schema),
      input: mix(fc.array(c.input, { maxLength: 2 }).map((xs) => new Set(xs))),
      label: `set(${c.label})`,
    })),
    fc
      .tuple(
        tie('node'),
        pick(
          'optional',
          'nullable',
          'readonly',
          'refine',
          'transform',
          'catch',
          'preprocess',
          'superRefine',
          'prefault',
          'fnDefault',
        ),
      )
      .map(([c, w]) => {
        const s = c.schema
        const schema =
          w === 'optional'
            ? s.optional()
            : w === 'nullable'
              ? s.nullable()
              : w === 'readonly'
                ? s.readonly()
                : w === 'refine'
                  ? s.refine((x) => JSON.stringify(x) !== '"abc"', 'not abc')
                  : w === 'transform'
                    ? s.transform((x) => [x])
                    : w === 'catch'
                      ? s.catch(null as never)
                      : w === 'preprocess'
                        ? z.preprocess((x) => (typeof x === 'string' ? x.trim() : x), s)
                        : w === 'superRefine'
                          ? s.superRefine(() => {})
                          : w === 'prefault'
                            ? s.prefault('x' as never)
                            : s.default(() => 'dflt' as never)
        return { schema, input: c.input, label: `${w}(${c.label})` }
      }),
    fc.constant(tree()),
  ),
})).node

function tree(): Case {
  type Tree = { v: number; children?: Tree[] | undefined }
  const Tree: z.ZodType<Tree> = z.object({
    v: z.int(),
    children: z.array(z.lazy(() => Tree)).optional(),
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
