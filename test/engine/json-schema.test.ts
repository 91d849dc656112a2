import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { zodAdapter } from '../../src/adapters/zod/index.js'
import { type JsonSchema, toJsonSchema } from '../../src/engine/index.js'

const input = (s: z.ZodType) => toJsonSchema(zodAdapter(s), { io: 'input' })
const output = (s: z.ZodType) => toJsonSchema(zodAdapter(s), { io: 'output' })

type Tree = { name: string; children: Tree[] }
const Tree: z.ZodType<Tree> = z.object({ name: z.string(), children: z.array(z.lazy(() => Tree)) })

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
    expect(input(z.int32())).toMatchObject({ type: 'integer', format: 'int32' })
    expect(input(z.bigint())).toEqual({ type: 'integer', format: 'int64' })
    expect(input(z.literal('a'))).toEqual({ const: 'a' })
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
    expect(input(s)).toEqual({ type: 'string' })
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
})
