import { collectionSchema } from '@usebruno/schema'
import { convert } from 'insomnia-importers'
import postman from 'postman-collection'
import { describe, expect, it } from 'vitest'
import { toBruno, toInsomnia, toPostman } from '../../../src/openapi/index.js'

// The document is untrusted input: a hostile one must neither crash nor stall an export, nor
// smuggle template expressions or prototype keys into it.

const exporters = [
  ['toPostman', toPostman],
  ['toInsomnia', toInsomnia],
  ['toBruno', toBruno],
] as const

const evil = '{{awsSecret}}{% raw %}{#x#}'

// Built from JSON text, as a document read from a request or a file is: `__proto__` is an own key.
const hostile = JSON.parse(
  JSON.stringify({
    openapi: '3.1.0',
    info: { title: `${evil}\u0000\u2028title`, version: evil, description: evil },
    servers: [{ url: `https://{host}/${evil}`, variables: { host: { default: '{{internal}}' } } }],
    tags: [{ name: evil, description: evil }, { name: '__proto__' }, 5, null],
    security: [{ ['__proto__']: [] }, { constructor: [] }, { key: [] }],
    paths: {
      [`/a/{${evil}}/{id}/:x/{{y}}?q#h`]: {
        parameters: [null, 7, 'x', { $ref: '#/components/parameters/__proto__' }],
        get: {
          tags: [evil],
          summary: `${evil}${'long '.repeat(10_000)}`,
          parameters: [
            { name: evil, in: 'query', example: evil },
            { name: 'id', in: 'path', schema: { type: 'string', enum: [evil] } },
            {
              name: 'h',
              in: 'header',
              required: true,
              schema: { type: 'string', default: `${evil}\r\nX-Injected: 1` },
            },
            { name: '__proto__', in: 'cookie', schema: { const: evil } },
            { name: 'constructor', in: 'query' },
          ],
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['__proto__', 'evil'],
                  properties: {
                    ['__proto__']: {
                      type: 'object',
                      properties: { polluted: { const: true } },
                      required: ['polluted'],
                    },
                    deep: { $ref: '#/components/schemas/D0' },
                    evil: { const: evil },
                    cycle: { $ref: '#/components/schemas/Self' },
                    wide: { $ref: '#/components/schemas/W0' },
                    huge: { type: 'string', minLength: 1e12, pattern: '^(a+)+$' },
                    many: { type: 'array', minItems: 1e9, items: { type: 'integer' } },
                    missing: { $ref: '#/components/schemas/constructor' },
                    outside: { $ref: 'https://example.com/schema.json' },
                    pointer: { $ref: '#/__proto__/polluted' },
                  },
                },
              },
            },
          },
        },
        post: {
          summary: 'form',
          requestBody: {
            content: { 'multipart/form-data': { schema: { $ref: '#/components/schemas/Self' } } },
          },
        },
        ['__proto__']: { summary: 'not a method' },
      },
      '/b': null,
      '/c': { get: [] },
      '/d': { $ref: '#/paths/~1d' },
    },
    components: {
      securitySchemes: {
        ['__proto__']: { type: 'apiKey', in: 'header', name: evil },
        constructor: { type: 'http', scheme: 'bearer' },
        key: {
          type: 'oauth2',
          flows: { implicit: { authorizationUrl: evil, scopes: { [evil]: 'x' } } },
        },
      },
      parameters: { ['__proto__']: { name: 'p', in: 'query' } },
      schemas: {
        Self: {
          allOf: [{ $ref: '#/components/schemas/Self' }],
          properties: { a: { $ref: '#/components/schemas/Self' } },
        },
        ...Object.fromEntries(
          Array.from({ length: 2000 }, (_, i) => [
            `D${i}`,
            {
              type: 'object',
              required: ['next'],
              properties: { next: { $ref: `#/components/schemas/D${i + 1}` } },
            },
          ]),
        ),
        D2000: { type: 'string' },
        ...Object.fromEntries(
          Array.from({ length: 30 }, (_, i) => [
            `W${i}`,
            {
              type: 'object',
              properties: Object.fromEntries(
                Array.from({ length: 12 }, (_, j) => [
                  `p${j}`,
                  { $ref: `#/components/schemas/W${i + 1}` },
                ]),
              ),
            },
          ]),
        ),
        W30: { type: 'integer' },
      },
    },
  }),
)

// Our own variables are `{{name}}` or `{{ _.name }}` with an identifier inside; anything else
// that opens a template came from the document.
// Descriptions and the names of collections, folders and requests are shown, never expanded, by
// all three tools: they keep the document's text and are left out of the scan. The names of
// parameters, headers and fields are expanded and stay in.
const displayed = ['_type', 'request', 'item', 'items', '_postman_id', 'seq', 'ignore']

function foreignTemplates(value: unknown): string[] {
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key, v) {
    if (key === 'description' || key === 'docs') return undefined
    const meta = Object.keys(this).length === 1
    if (key === 'name' && (meta || displayed.some((k) => Object.hasOwn(this, k)))) return undefined
    return v
  })
  return [...text.matchAll(/\{[{%#]/g)]
    .map((m) => text.slice(m.index, m.index + 40))
    .filter((s) => !/^\{\{( _\.)?[A-Za-z_][A-Za-z0-9_]* ?\}\}/.test(s))
}

describe.each(exporters)('%s with a hostile document', (_name, exporter) => {
  it('finishes quickly, pollutes nothing and writes no template from the document', () => {
    const start = performance.now()
    const out = exporter(hostile)
    expect(performance.now() - start).toBeLessThan(5000)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
    expect(foreignTemplates(out)).toEqual([])
    expect(JSON.stringify(out)).not.toContain('\r\nX-Injected')
    expect(JSON.stringify(out).length).toBeLessThan(2_000_000)
  })

  it.each([
    null,
    undefined,
    'openapi',
    42,
    [],
    {},
    { paths: [] },
    { paths: { '/x': { get: { parameters: {}, responses: 1 } } } },
  ])('gives an empty but valid export for %j', (doc) => {
    expect(() => JSON.stringify(exporter(doc))).not.toThrow()
  })
})

describe('hostile exports still import', () => {
  it('into postman-collection, insomnia-importers and @usebruno/schema', async () => {
    const collection = new postman.Collection(JSON.parse(JSON.stringify(toPostman(hostile))))
    const names: string[] = []
    collection.forEachItem((item) => {
      names.push(item.name)
    })
    expect(names.length).toBe(2)
    const insomnia = await convert(JSON.stringify(toInsomnia(hostile)))
    expect(insomnia.type.id).toBe('insomnia-4')
    await expect(
      collectionSchema.validate(JSON.parse(JSON.stringify(toBruno(hostile)))),
    ).resolves.toBeTruthy()
  })

  it('keep a JSON body that says what the schema says, with {{ written as \\u007b', () => {
    const item = toPostman(hostile).item.flatMap((i) => ('item' in i ? i.item : [i]))[0]!
    const raw = (item as unknown as { request: { body: { raw: string } } }).request.body.raw
    const body = JSON.parse(raw)
    expect(body.evil).toBe(evil)
    expect(Object.hasOwn(body, '__proto__')).toBe(true)
    expect(raw).toContain('\\u007b')
  })
})
