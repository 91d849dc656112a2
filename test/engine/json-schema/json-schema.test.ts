import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { zodAdapter } from '../../../src/adapters/zod/index.js'
import { type JsonSchema, toJsonSchema } from '../../../src/engine/index.js'

const input = (s: z.ZodType) => toJsonSchema(zodAdapter(s), { io: 'input' })
const output = (s: z.ZodType) => toJsonSchema(zodAdapter(s), { io: 'output' })

type Tree = { name: string; children: Tree[] }
const Tree: z.ZodType<Tree> = z.object({ name: z.string(), children: z.array(z.lazy(() => Tree)) })
type Comment = { text: string; replies: Comment[] }
const Comment: z.ZodType<Comment> = z.object({
  text: z.string(),
  replies: z.array(z.lazy(() => Comment)),
})

const newAjv = () => {
  const ajv = new Ajv2020({ strict: false })
  addFormats(ajv)
  return ajv
}
/** Asserts the documented schema compiles and accepts every value zod accepts (and parses to). */
const acceptsWhatZodDoes = (schema: z.ZodType, values: readonly unknown[]) => {
  const ajv = newAjv()
  const inputSchema = ajv.compile(input(schema))
  const outputSchema = ajv.compile(output(schema))
  for (const v of values) {
    const parsed = schema.safeParse(v)
    if (!parsed.success) continue
    expect(
      inputSchema(v),
      `input ${JSON.stringify(v)}: ${ajv.errorsText(inputSchema.errors)}`,
    ).toBe(true)
    expect(
      outputSchema(parsed.data),
      `output ${JSON.stringify(parsed.data)}: ${ajv.errorsText(outputSchema.errors)}`,
    ).toBe(true)
  }
}

const realistic: Record<string, z.ZodType> = {
  user: z.object({
    name: z.string().min(2).max(50).describe('Display name'),
    email: z.email(),
    age: z.int().min(0).optional(),
    role: z.enum(['admin', 'user']).default('user'),
    tags: z.array(z.string()).max(5),
    address: z.object({ zip: z.string().regex(/^\d{5}$/), city: z.string() }),
  }),
  query: z.object({
    page: z.coerce.number().int().min(1).default(1),
    sort: z.enum(['asc', 'desc']).optional(),
    tags: z.array(z.string()),
  }),
  tree: Tree,
  event: z.discriminatedUnion('type', [
    z.object({ type: z.literal('click'), x: z.number(), y: z.number() }),
    z.object({ type: z.literal('key'), key: z.string().length(1) }),
  ]),
  misc: z.object({
    id: z.uuid(),
    url: z.url(),
    at: z.iso.datetime(),
    day: z.iso.date(),
    ip: z.ipv4(),
    note: z.string().nullable(),
    pair: z.tuple([z.string(), z.number()], z.boolean()),
    map: z.record(z.string(), z.number()),
    set: z.set(z.string()),
    big: z.bigint(),
    when: z.date(),
    either: z.union([z.string(), z.number()]),
    both: z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })),
    frozen: z.array(z.string()).readonly(),
    mode: z.literal(['a', 'b']),
    nothing: z.never().optional(),
    any: z.unknown(),
    trimmed: z.string().trim().startsWith('x').endsWith('y').includes('.'),
    refined: z.string().refine((s) => s.length > 0),
    piped: z.string().pipe(z.coerce.number()),
    changed: z.string().transform((s) => s.length),
    strict: z.strictObject({ k: z.string() }),
    loose: z.looseObject({ k: z.string() }),
  }),
}

describe('toJsonSchema', () => {
  it('writes JSON Schema 2020-12 that passes the meta-schema and compiles with refs resolved', () => {
    const ajv = new Ajv2020({ strict: false })
    addFormats(ajv)
    for (const [name, schema] of Object.entries(realistic)) {
      for (const io of ['input', 'output'] as const) {
        const js = toJsonSchema(zodAdapter(schema), { io })
        expect(ajv.validateSchema(js), `${name} ${io}: ${ajv.errorsText(ajv.errors)}`).toBe(true)
        expect(() => ajv.compile(js), `${name} ${io}`).not.toThrow()
      }
    }
  })

  it('lists as required every property neither optional nor defaulted (input mode)', () => {
    expect(input(realistic.user!).required).toEqual(['name', 'email', 'tags', 'address'])
    expect(output(realistic.user!).required).toEqual(['name', 'email', 'role', 'tags', 'address'])
  })

  it('writes null as a type, never `nullable: true`', () => {
    expect(input(z.string().nullable())).toEqual({ type: ['string', 'null'] })
    expect(input(z.enum(['a', 'b']).nullable())).toEqual({
      type: ['string', 'null'],
      enum: ['a', 'b', null],
    })
    expect(input(z.literal('a').nullable())).toEqual({ enum: ['a', null] })
    expect(input(z.object({}).nullable())).toMatchObject({ type: ['object', 'null'] })
    expect(JSON.stringify(input(realistic.misc!))).not.toContain('nullable')
  })

  it('writes recursion through $defs and $ref, or into given definitions', () => {
    const js = input(Tree)
    expect(js.$ref).toBe('#/$defs/Schema1')
    expect(js.$defs).toHaveProperty('Schema1.properties.children.items.$ref', '#/$defs/Schema1')
    const definitions: Record<string, JsonSchema> = {}
    const inline = toJsonSchema(zodAdapter(Tree), {
      io: 'input',
      definitions,
      refPrefix: '#/components/schemas/',
    })
    expect(inline).toEqual({ $ref: '#/components/schemas/Schema1' })
    expect(definitions.Schema1).toHaveProperty(
      'properties.children.items.$ref',
      '#/components/schemas/Schema1',
    )
  })

  it('maps strings with their formats and patterns', () => {
    expect(input(z.email())).toEqual({ type: 'string', format: 'email' })
    expect(input(z.uuid())).toEqual({ type: 'string', format: 'uuid' })
    expect(input(z.url())).toEqual({ type: 'string', format: 'uri' })
    expect(input(z.iso.datetime())).toEqual({ type: 'string', format: 'date-time' })
    expect(input(z.base64())).toMatchObject({ format: 'byte', contentEncoding: 'base64' })
    expect(input(z.cuid2())).toMatchObject({ type: 'string', pattern: expect.any(String) })
    expect(input(z.string().min(1).max(3))).toEqual({ type: 'string', minLength: 1, maxLength: 3 })
    expect(input(z.string().startsWith('a.'))).toEqual({ type: 'string', pattern: '^a\\.' })
    expect(input(z.string().regex(/^x/).endsWith('y'))).toEqual({
      type: 'string',
      pattern: '^x',
      allOf: [{ pattern: 'y$' }],
    })
  })

  it('maps numbers, bigint, literals, enums and unions', () => {
    expect(input(z.number().gt(0).lte(10).multipleOf(2))).toEqual({
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 10,
      multipleOf: 2,
    })
    // Every step must hold, as the validator checks them: no single multipleOf says that.
    expect(input(z.number().multipleOf(2).multipleOf(3))).toEqual({
      type: 'number',
      allOf: [{ multipleOf: 2 }, { multipleOf: 3 }],
    })
    expect(input(z.int32())).toMatchObject({ type: 'integer', format: 'int32' })
    expect(input(z.bigint())).toEqual({ type: 'integer', format: 'int64' })
    // A literal is `const` and a one-value `enum`; null joins the enum.
    expect(input(z.literal('active'))).toEqual({ const: 'active', enum: ['active'] })
    expect(input(z.literal(1).nullable())).toEqual({ enum: [1, null] })
    expect(input(z.enum(['only']))).toEqual({ const: 'only', enum: ['only'] })
    expect(input(z.union([z.literal('a'), z.literal('b')]))).toEqual({
      type: 'string',
      enum: ['a', 'b'],
    })
    expect(input(z.union([z.string(), z.number()]))).toEqual({
      anyOf: [{ type: 'string' }, { type: 'number' }],
    })
    expect(input(realistic.event!)).toHaveProperty('oneOf')
  })

  it('maps tuples, records, sets, readonly, never, unknown and defaults', () => {
    expect(input(z.tuple([z.string()], z.number()))).toEqual({
      type: 'array',
      prefixItems: [{ type: 'string' }],
      minItems: 1,
      items: { type: 'number' },
    })
    expect(input(z.record(z.string(), z.number()))).toEqual({
      type: 'object',
      additionalProperties: { type: 'number' },
    })
    expect(input(z.set(z.string()))).toEqual({
      type: 'array',
      uniqueItems: true,
      items: { type: 'string' },
    })
    expect(input(z.string().readonly())).toEqual({ type: 'string', readOnly: true })
    expect(input(z.never())).toEqual({ not: {} })
    expect(input(z.unknown())).toEqual({})
    expect(input(z.string().default('x'))).toEqual({ type: 'string', default: 'x' })
  })

  it('shows a pipe’s input or output side, and a transform’s output as unconstrained', () => {
    const s = z.string().pipe(z.coerce.number())
    // The string is read as a number: the numerals it may be.
    expect(input(s)).toEqual({ type: 'string', pattern: '^-?\\d{1,15}(?:\\.\\d+)?$' })
    expect(output(s)).toEqual({ type: 'number' })
    expect(input(z.string().transform((x) => x.length))).toEqual({ type: 'string' })
    expect(output(z.string().transform((x) => x.length))).toEqual({})
  })

  it('treats unknown keys per mode: strict and output strip close the object', () => {
    expect(input(z.strictObject({}))).toMatchObject({ additionalProperties: false })
    expect(input(z.object({}))).not.toHaveProperty('additionalProperties')
    expect(output(z.object({}))).toMatchObject({ additionalProperties: false })
    expect(input(z.object({}).catchall(z.number()))).toMatchObject({
      additionalProperties: { type: 'number' },
    })
  })

  it('carries title, description and examples', () => {
    expect(input(z.string().meta({ title: 'T', description: 'D', examples: ['e'] }))).toEqual({
      type: 'string',
      title: 'T',
      description: 'D',
      examples: ['e'],
    })
  })

  it('gives recursive schemas sharing one definitions map a definition each, reused per schema', () => {
    const definitions: Record<string, JsonSchema> = {}
    const write = (schema: z.ZodType) =>
      toJsonSchema(zodAdapter(schema), { io: 'input', definitions, refPrefix: '#/$defs/' })
    const tree = write(Tree)
    const comment = write(Comment)
    expect(tree).toEqual({ $ref: '#/$defs/Schema1' })
    expect(comment).toEqual({ $ref: '#/$defs/Schema2' })
    expect(definitions).toHaveProperty('Schema2.properties.replies.items.$ref', '#/$defs/Schema2')
    expect(write(Tree)).toEqual(tree)
    expect(write(z.object({ t: Tree }))).toEqual({
      type: 'object',
      properties: { t: { $ref: '#/$defs/Schema1' } },
      required: ['t'],
    })
    expect(Object.keys(definitions)).toEqual(['Schema1', 'Schema2'])
    const ajv = newAjv()
    const asTree = ajv.compile({ ...tree, $defs: definitions })
    const asComment = ajv.compile({ ...comment, $defs: definitions })
    const t = { name: 'n', children: [{ name: 'm', children: [] }] }
    const c = { text: 't', replies: [{ text: 'u', replies: [] }] }
    expect([asTree(t), asComment(c), asTree(c), asComment(t)]).toEqual([true, true, false, false])
  })

  it('writes patterns that compile under the u flag, leaving out regexes they cannot express', () => {
    expect(input(z.string().startsWith('ab-12'))).toEqual({ type: 'string', pattern: '^ab-12' })
    expect(input(z.string().includes('a/b'))).toEqual({ type: 'string', pattern: 'a/b' })
    expect(input(z.string().endsWith('(a.b)*[-]{1}?|$^\\'))).toEqual({
      type: 'string',
      pattern: '\\(a\\.b\\)\\*\\[-\\]\\{1\\}\\?\\|\\$\\^\\\\$',
    })
    // Flags that change what matches, and sources valid only without `u`, are left out.
    expect(input(z.string().regex(/^[a-z]+$/i))).toEqual({ type: 'string' })
    expect(input(z.string().regex(/^a.b$/s))).toEqual({ type: 'string' })
    expect(input(z.string().regex(/^[\w-.]+$/))).toEqual({ type: 'string' })
    // Without `u`, `\u{41}` is 41 `u`s and `\p{L}` is `p{L}`; built from strings so no tool
    // rewrites them as literals.
    const [braces, property] = ['^\\u{41}$', '^\\p{L}$'].map((source) => new RegExp(source))
    expect(input(z.string().regex(braces!))).toEqual({ type: 'string' })
    expect(input(z.string().regex(property!))).toEqual({ type: 'string' })
    // Kept: no flags, `u`, and `g`/`y` (the engine resets lastIndex before each test).
    expect(input(z.string().regex(/^\p{L}+$/u))).toEqual({ type: 'string', pattern: '^\\p{L}+$' })
    expect(input(z.string().regex(/^\d+$/gy))).toEqual({ type: 'string', pattern: '^\\d+$' })
    expect(
      input(
        z
          .string()
          .regex(/^[a-z-]+$/)
          .regex(/x/i),
      ),
    ).toEqual({
      type: 'string',
      pattern: '^[a-z-]+$',
    })
    const strings = [
      'ab-12',
      'ab-12x',
      'ab-13',
      'ABC',
      'abc',
      'a-b.c',
      'a\nb',
      'A',
      'uuu',
      '12',
      '',
      'é',
      'p{L}',
      'u'.repeat(41),
    ]
    const regexes = [/^[a-z]+$/i, /^a.b$/s, /^[\w-.]+$/, braces!, property!, /^\d+$/g, /^\d+$/y]
    for (const re of regexes) acceptsWhatZodDoes(z.string().regex(re), strings)
    acceptsWhatZodDoes(z.string().startsWith('ab-12'), strings)
    acceptsWhatZodDoes(z.string().includes('b.c').endsWith('.c'), strings)
  })

  it('leaves intersected objects open, closing the intersection only when every side is closed', () => {
    const strip = z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() }))
    const strict = z.intersection(
      z.strictObject({ a: z.string() }),
      z.strictObject({ b: z.number() }),
    )
    const mixed = z.intersection(z.strictObject({ a: z.string() }), z.object({ b: z.number() }))
    const three = z.intersection(strict, z.strictObject({ c: z.boolean() }))
    const recursive = z.intersection(Tree, z.object({ b: z.number() }))
    const values = [
      { a: 'x', b: 1 },
      { a: 'x', b: 1, c: true },
      { a: 'x', b: 1, c: true, d: 0 },
      { a: 'x' },
      { name: 'n', children: [{ name: 'm', children: [] }], b: 1 },
      { name: 'n', children: [], b: 1, c: 1 },
    ]
    for (const s of [strip, strict, mixed, three, recursive]) acceptsWhatZodDoes(s, values)
    expect(output(strip)).toEqual({
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] },
      ],
      unevaluatedProperties: false,
    })
    expect(input(strip)).not.toHaveProperty('unevaluatedProperties')
    expect(input(mixed)).not.toHaveProperty('unevaluatedProperties')
    // Closed where zod is: strict sides reject a key only when every side does.
    const ajv = newAjv()
    const strictDoc = ajv.compile(input(three))
    expect(three.safeParse({ a: 'x', b: 1, c: true, d: 0 }).success).toBe(false)
    expect([
      strictDoc({ a: 'x', b: 1, c: true }),
      strictDoc({ a: 'x', b: 1, c: true, d: 0 }),
    ]).toEqual([true, false])
    // A nested object stays closed in output mode.
    const nested = ajv.compile(
      output(
        z.intersection(z.object({ a: z.object({ x: z.string() }) }), z.object({ b: z.number() })),
      ),
    )
    expect([nested({ a: { x: 's' }, b: 1 }), nested({ a: { x: 's', y: 1 }, b: 1 })]).toEqual([
      true,
      false,
    ])
  })
})

describe('toJsonSchema for the docs', () => {
  it('writes a node with meta.id once into the definitions and refers to it, per mode', () => {
    const User = z.object({ n: z.number().default(1) }).meta({ id: 'User' })
    const defs: Record<string, JsonSchema> = {}
    const opts = { definitions: defs, refPrefix: '#/components/schemas/' }
    expect(toJsonSchema(zodAdapter(User), { io: 'input', ...opts })).toEqual({
      $ref: '#/components/schemas/User',
    })
    expect(toJsonSchema(zodAdapter(z.array(User)), { io: 'input', ...opts })).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/User' },
    })
    expect(toJsonSchema(zodAdapter(User), { io: 'output', ...opts })).toEqual({
      $ref: '#/components/schemas/UserOutput',
    })
    expect(Object.keys(defs)).toEqual(['User', 'UserOutput'])
    expect(defs.User).toMatchObject({ properties: { n: { default: 1 } } })
    expect(defs.UserOutput).toMatchObject({ required: ['n'] })
  })

  it('reports what it documents as any value through onWiden', () => {
    const widened: unknown[] = []
    const s = toJsonSchema(zodAdapter(z.object({ m: z.map(z.string(), z.number()) })), {
      io: 'input',
      onWiden: (w) => widened.push(w),
    })
    expect(s).toMatchObject({ properties: { m: {} } })
    expect(widened).toEqual([{ reason: 'map' }])
  })

  it('writes a converting leaf in a JSON body as its type or the strings it reads', () => {
    const n = zodAdapter(z.coerce.number().int().min(0))
    expect(toJsonSchema(n, { io: 'input', coercion: 'json' })).toEqual({
      type: ['integer', 'string'],
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      pattern: '^\\d{1,15}$',
    })
    // As a parameter (the string means its target type) and in output mode: the type alone.
    expect(toJsonSchema(n, { io: 'input' })).toMatchObject({ type: 'integer', minimum: 0 })
    expect(toJsonSchema(n, { io: 'output', coercion: 'json' })).toMatchObject({
      type: 'integer',
      minimum: 0,
    })
    const json = (s: z.ZodType) => toJsonSchema(zodAdapter(s), { io: 'input', coercion: 'json' })
    expect(json(z.coerce.number().lt(5))).toEqual({
      type: ['number', 'string'],
      exclusiveMaximum: 5,
      pattern: '^-?\\d{1,15}(?:\\.\\d+)?$',
    })
    expect(json(z.coerce.number().nullable())).toMatchObject({
      type: ['number', 'string', 'null'],
    })
    expect(json(z.coerce.bigint())).toEqual({
      type: ['integer', 'string'],
      format: 'int64',
      pattern: '^-?\\d+$',
    })
    // Boolean(string) takes every string ("false" too): no pattern, and a note saying so.
    expect(json(z.coerce.boolean())).toMatchObject({ type: ['boolean', 'string'] })
    expect(json(z.coerce.boolean())).not.toHaveProperty('pattern')
    expect(json(z.coerce.date())).toMatchObject({ type: 'string', pattern: expect.any(String) })
    expect(json(z.coerce.string().min(2))).toEqual({
      type: ['string', 'number', 'boolean'],
      minLength: 2,
    })
  })

  it('documents in input mode what a client may send around catch, trim and tuples', () => {
    expect(input(z.string().catch('x'))).toEqual({})
    expect(input(z.object({ a: z.string().catch('x') }))).not.toHaveProperty('required')
    expect(
      input(
        z
          .string()
          .trim()
          .min(2)
          .toLowerCase()
          .regex(/^[a-z]+$/),
      ),
    ).toEqual({
      type: 'string',
      minLength: 2,
    })
    expect(
      output(
        z
          .string()
          .trim()
          .toLowerCase()
          .regex(/^[a-z]+$/),
      ),
    ).toEqual({
      type: 'string',
      pattern: '^[a-z]+$',
    })
    expect(input(z.tuple([z.string(), z.number().optional()]))).toMatchObject({ minItems: 1 })
    expect(input(z.null().nullable())).toEqual({ type: 'null' })
  })
})
