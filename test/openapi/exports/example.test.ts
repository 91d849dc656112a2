import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { sampleSchema } from '../../../src/openapi/exports/example.js'

// Each schema's example is checked by ajv (JSON Schema 2020-12, every format in full mode).
const components = {
  Node: {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string' },
      children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
      parent: { $ref: '#/components/schemas/Node' },
    },
  },
  Json: {
    anyOf: [
      { type: 'object', additionalProperties: { $ref: '#/components/schemas/Json' } },
      { type: 'array', items: { $ref: '#/components/schemas/Json' } },
      { type: 'string' },
    ],
  },
  Cat: {
    type: 'object',
    required: ['type', 'lives'],
    properties: { type: { const: 'cat' }, lives: { type: 'integer', minimum: 1, maximum: 9 } },
  },
  Dog: {
    type: 'object',
    required: ['type'],
    properties: { type: { const: 'dog' }, barks: { type: 'boolean' } },
  },
  Base: {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string', format: 'uuid' } },
  },
  Loose: { type: 'object', properties: { a: { type: 'string' } } },
  LooseToo: { type: 'object', properties: { b: { type: 'string' } } },
}

const formats = [
  'email',
  'idn-email',
  'uuid',
  'date-time',
  'date',
  'time',
  'duration',
  'uri',
  'iri',
  'uri-reference',
  'iri-reference',
  'uri-template',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'byte',
  'json-pointer',
  'relative-json-pointer',
  'regex',
  'password',
  'binary',
]

const patterns = [
  '^[a-z]{3}-\\d{2,4}$',
  '^(?:SKU|PRD)_[0-9A-F]{8}$',
  '^[^\\s@]+@[^\\s@]+$',
  '^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$',
  '^c[^\\s-]{8,}$',
  '^[A-Za-z0-9_-]{21}$',
  '^abc',
  'xyz$',
  '^\\+?[1-9]\\d{1,14}$',
  '^#[0-9a-fA-F]{6}$',
  '^(\\d+\\.){2}\\d+$',
  '^[\\w.]+\\\\[a-z]+$',
  '^\\u0041\\x42[\\u0043-\\u0045]$',
  '^(?<year>\\d{4})-(?<month>0[1-9]|1[0-2])$',
]

const table: Array<[string, unknown]> = [
  ['a $ref', { $ref: '#/components/schemas/Base' }],
  [
    'a recursive $ref (required name, optional children and parent)',
    { $ref: '#/components/schemas/Node' },
  ],
  ['a recursive anyOf (a JSON value)', { $ref: '#/components/schemas/Json' }],
  [
    'allOf of a $ref and an extension',
    {
      allOf: [
        { $ref: '#/components/schemas/Base' },
        { properties: { n: { type: 'integer', minimum: 5 } }, required: ['n'] },
      ],
    },
  ],
  [
    'allOf narrowing bounds',
    {
      allOf: [
        { type: 'number', minimum: 10 },
        { type: 'integer', maximum: 20, multipleOf: 7 },
      ],
    },
  ],
  [
    'oneOf with const tags',
    { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] },
  ],
  [
    'oneOf of overlapping objects (the second branch is needed)',
    {
      oneOf: [
        { $ref: '#/components/schemas/Loose' },
        { type: 'object', required: ['z'], properties: { z: { type: 'number' } } },
      ],
    },
  ],
  [
    'oneOf where the first branch also matches the second',
    { oneOf: [{ type: 'number' }, { type: 'integer', minimum: 3 }] },
  ],
  ['anyOf', { anyOf: [{ type: 'string', format: 'email' }, { type: 'integer' }] }],
  ['enum', { enum: ['b', 'c'] }],
  ['enum with null first', { enum: [null, 3] }],
  ['const', { const: { deep: [1, 'two'] } }],
  ['type list with null', { type: ['null', 'string'], minLength: 2 }],
  ['exclusive bounds', { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }],
  ['negative range', { type: 'integer', maximum: -5 }],
  ['fractional multipleOf', { type: 'number', minimum: 0.25, multipleOf: 0.1 }],
  ['integer above a fractional minimum', { type: 'integer', minimum: 2.5 }],
  ['long strings', { type: 'string', minLength: 300, maxLength: 300 }],
  ['short strings', { type: 'string', maxLength: 2 }],
  ['an email with a minimum length', { type: 'string', format: 'email', minLength: 30 }],
  [
    'unique items',
    {
      type: 'array',
      minItems: 4,
      uniqueItems: true,
      items: { type: 'integer', minimum: 0, maximum: 9 },
    },
  ],
  [
    'unique enum items',
    { type: 'array', minItems: 2, uniqueItems: true, items: { enum: ['x', 'y', 'z'] } },
  ],
  [
    'unique strings',
    { type: 'array', minItems: 3, uniqueItems: true, items: { type: 'string', format: 'date' } },
  ],
  [
    'prefixItems',
    { type: 'array', prefixItems: [{ type: 'string' }, { type: 'boolean' }], items: false },
  ],
  ['maxItems 0', { type: 'array', maxItems: 0, items: { type: 'string' } }],
  [
    'minProperties with additionalProperties',
    { type: 'object', minProperties: 2, additionalProperties: { type: 'boolean' } },
  ],
  ['required without properties', { type: 'object', required: ['x', 'y'] }],
  [
    'maxProperties keeps the required',
    {
      type: 'object',
      maxProperties: 1,
      required: ['b'],
      properties: { a: { type: 'string' }, b: { type: 'string' } },
    },
  ],
  [
    'closed object',
    { type: 'object', additionalProperties: false, properties: { a: { type: 'boolean' } } },
  ],
  ['examples win when they fit', { type: 'integer', minimum: 1, examples: [42] }],
  ['an example that does not fit is ignored', { type: 'integer', minimum: 1, examples: [0] }],
  ['a default', { type: 'string', enum: ['x', 'y'], default: 'y' }],
  [
    'a key named __proto__',
    JSON.parse(
      '{"type":"object","required":["__proto__"],"properties":{"__proto__":{"type":"string"}}}',
    ),
  ],
  ['nothing at all (any value)', {}],
  ['a boolean schema', true],
  ...formats.map((format): [string, unknown] => [`format ${format}`, { type: 'string', format }]),
  ...patterns.map((pattern): [string, unknown] => [
    `pattern ${pattern}`,
    { type: 'string', pattern },
  ]),
]

describe('sampleSchema', () => {
  // Each schema sits in the document under /probe/<index>, so its $refs resolve as in a spec.
  const doc = { components: { schemas: components }, probe: table.map(([, schema]) => schema) }
  const ajv = new Ajv2020({ strict: false })
  addFormats(ajv)
  // ajv-formats has no internationalised formats: these checks stand in for them.
  ajv.addFormat('idn-email', (s: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s))
  ajv.addFormat('iri', (s: string) => URL.canParse(s))
  ajv.addFormat('iri-reference', (s: string) => URL.canParse(s, 'https://example.com'))
  ajv.addFormat('idn-hostname', (s: string) => /^[^\s.]+(\.[^\s.]+)*$/.test(s))
  ajv.addSchema({ ...doc, $id: 'doc.json' })

  it.each(table.map(([name], index) => [name, index] as const))(
    'gives a value %s accepts',
    (_name, index) => {
      const value = sampleSchema(doc, doc.probe[index])
      expect(value).not.toBeUndefined()
      const validate = ajv.compile({ $ref: `doc.json#/probe/${index}` })
      expect(validate(value) ? [] : validate.errors, JSON.stringify(value)).toEqual([])
    },
  )

  it('leaves a read-only optional property out and keeps the writable one', () => {
    const schema = {
      type: 'object',
      properties: { id: { type: 'string', readOnly: true }, a: { type: 'string' } },
    }
    expect(sampleSchema(doc, schema)).toEqual({ a: 'string' })
  })

  it('uses a fitting example, default or enum value before making one up', () => {
    expect(sampleSchema(doc, { type: 'integer', examples: [42] })).toBe(42)
    expect(sampleSchema(doc, { type: 'integer', example: 7 })).toBe(7)
    expect(sampleSchema(doc, { type: 'string', default: 'dark' })).toBe('dark')
    expect(sampleSchema(doc, { type: 'integer', minimum: 1, examples: [0] })).toBe(1)
  })

  it('writes a __proto__ key as an own property, never as the prototype', () => {
    // JSON.parse makes `__proto__` an own key, as a document read from JSON has it.
    const schema = JSON.parse(
      '{"type":"object","required":["__proto__"],"properties":{"__proto__":{"const":{"admin":true}}}}',
    )
    const value = sampleSchema(doc, schema) as object
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(JSON.stringify(value)).toBe('{"__proto__":{"admin":true}}')
    expect(({} as { admin?: boolean }).admin).toBeUndefined()
  })

  it('gives up on what no value satisfies', () => {
    expect(sampleSchema(doc, false)).toBeUndefined()
    expect(sampleSchema(doc, { not: {} })).toBeUndefined()
    expect(
      sampleSchema(
        { components: { schemas: { A: { $ref: '#/components/schemas/A' } } } },
        { $ref: '#/components/schemas/A' },
      ),
    ).toBeUndefined()
    const required = {
      components: {
        schemas: {
          R: {
            type: 'object',
            required: ['r'],
            properties: { r: { $ref: '#/components/schemas/R' } },
          },
        },
      },
    }
    expect(sampleSchema(required, { $ref: '#/components/schemas/R' })).toBeUndefined()
  })
})
