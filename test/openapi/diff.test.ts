import { describe, expect, it } from 'vitest'
import { type DiffFinding, diffOpenAPI, diffRules } from '../../src/openapi/index.js'
import { api, object } from './diff-support.js'

const rules = (findings: readonly DiffFinding[]) => findings.map((f) => `${f.level} ${f.rule}`)
const breaking = (findings: readonly DiffFinding[]) =>
  findings.filter((f) => f.level === 'breaking').map((f) => f.rule)
const str = { type: 'string' }

/** A schema change judged twice: in the request body and in the response. */
function both(base: object, head: object) {
  return {
    request: breaking(
      diffOpenAPI(api({ request: base as never }), api({ request: head as never })),
    ),
    response: breaking(
      diffOpenAPI(api({ response: base as never }), api({ response: head as never })),
    ),
  }
}

describe('diffOpenAPI', () => {
  it('finds nothing between a document and itself, or a copy of it', () => {
    const doc = api({
      request: object({ a: str }, ['a']),
      response: { $ref: '#/components/schemas/U' },
      schemas: { U: object({ id: str }, ['id']) },
    })
    expect(diffOpenAPI(doc, doc)).toEqual([])
    expect(diffOpenAPI(doc, structuredClone(doc))).toEqual([])
  })

  it('reports pure additions as info only: an operation, an optional request field, a response field, a status', () => {
    const base = api({ request: object({ a: str }), response: object({ id: str }) })
    const head = api({
      request: object({ a: str, b: str }),
      response: object({ id: str, extra: str }),
    })
    ;(head.paths as any)['/items/{id}'].post.responses['404'] = { description: 'gone' }
    ;(head.paths as any)['/other'] = { get: { responses: { '200': { description: 'ok' } } } }
    const findings = diffOpenAPI(base, head)
    expect(rules(findings)).toEqual([
      'info request-property-added',
      'info response-property-added',
      'info response-status-added',
      'info operation-added',
    ])
  })

  it('knows request from response: a field newly required breaks a request, not a response', () => {
    expect(both(object({ a: str }), object({ a: str }, ['a']))).toEqual({
      request: ['request-property-became-required'],
      response: [],
    })
    expect(both(object({ a: str }), object({ a: str, b: str }, ['b']))).toEqual({
      request: ['request-property-added-required'],
      response: [],
    })
  })

  it('a removed or optional response field breaks a response, not a request', () => {
    expect(both(object({ a: str, b: str }, ['a']), object({ b: str }))).toEqual({
      request: [],
      response: ['response-required-property-removed'],
    })
    expect(both(object({ a: str }, ['a']), object({ a: str }))).toEqual({
      request: [],
      response: ['response-property-became-optional'],
    })
    const optional = diffOpenAPI(
      api({ response: object({ a: str }) }),
      api({ response: object({}) }),
    )
    expect(rules(optional)).toEqual(['warning response-optional-property-removed'])
  })

  it('a narrower input breaks a request, a wider output breaks a response', () => {
    const cases: [string, object, object, string, string][] = [
      ['type', { type: 'number' }, { type: 'integer' }, 'request-type-changed', 'none'],
      ['type', { type: 'integer' }, { type: 'number' }, 'none', 'response-type-changed'],
      [
        'enum',
        { type: 'string', enum: ['a', 'b'] },
        { type: 'string', enum: ['a'] },
        'request-enum-value-removed',
        'none',
      ],
      [
        'enum',
        { type: 'string', enum: ['a'] },
        { type: 'string', enum: ['a', 'b'] },
        'none',
        'response-enum-value-added',
      ],
      ['enum', str, { type: 'string', enum: ['a'] }, 'request-enum-value-removed', 'none'],
      [
        'maxLength',
        { type: 'string', maxLength: 10 },
        { type: 'string', maxLength: 5 },
        'request-bound-tightened',
        'none',
      ],
      [
        'maxLength',
        { type: 'string', maxLength: 5 },
        { type: 'string', maxLength: 10 },
        'none',
        'response-bound-loosened',
      ],
      ['minLength', str, { type: 'string', minLength: 1 }, 'request-bound-tightened', 'none'],
      [
        'minimum',
        { type: 'number', minimum: 1 },
        { type: 'number' },
        'none',
        'response-bound-loosened',
      ],
      [
        'maximum',
        { type: 'number', maximum: 10 },
        { type: 'number', exclusiveMaximum: 10 },
        'request-bound-tightened',
        'none',
      ],
      [
        '3.0 exclusive',
        { type: 'number', minimum: 0 },
        { type: 'number', minimum: 0, exclusiveMinimum: true },
        'request-bound-tightened',
        'none',
      ],
      [
        'minItems',
        { type: 'array', items: str },
        { type: 'array', items: str, minItems: 1 },
        'request-bound-tightened',
        'none',
      ],
      [
        'maxItems',
        { type: 'array', items: str, maxItems: 3 },
        { type: 'array', items: str, maxItems: 9 },
        'none',
        'response-bound-loosened',
      ],
      [
        'multipleOf',
        { type: 'number', multipleOf: 2 },
        { type: 'number', multipleOf: 4 },
        'request-bound-tightened',
        'none',
      ],
      [
        'multipleOf',
        { type: 'number', multipleOf: 4 },
        { type: 'number', multipleOf: 2 },
        'none',
        'response-bound-loosened',
      ],
      ['pattern', str, { type: 'string', pattern: '^a' }, 'request-pattern-changed', 'none'],
      ['format', str, { type: 'string', format: 'email' }, 'request-format-changed', 'none'],
      ['format', { type: 'string', format: 'date-time' }, str, 'none', 'response-format-changed'],
      [
        'format',
        { type: 'integer', format: 'int32' },
        { type: 'integer', format: 'int64' },
        'none',
        'response-format-changed',
      ],
      ['nullable', { type: ['string', 'null'] }, str, 'request-nullable-removed', 'none'],
      ['nullable', str, { type: ['string', 'null'] }, 'none', 'response-nullable-added'],
      [
        'additionalProperties',
        object({ a: str }),
        object({ a: str }, [], { additionalProperties: false }),
        'request-additional-properties-closed',
        'none',
      ],
      [
        'additionalProperties',
        object({ a: str }, [], { additionalProperties: false }),
        object({ a: str }),
        'none',
        'response-additional-properties-opened',
      ],
    ]
    for (const [keyword, base, head, request, response] of cases) {
      const found = both(base, head)
      expect({ keyword, ...found }).toEqual({
        keyword,
        request: request === 'none' ? [] : [request],
        response: response === 'none' ? [] : [response],
      })
    }
  })

  it('reads nested properties, array items and additionalProperties schemas', () => {
    const base = object({
      tags: { type: 'array', items: object({ name: { type: 'string', maxLength: 9 } }) },
      meta: { type: 'object', additionalProperties: str },
    })
    const head = object({
      tags: { type: 'array', items: object({ name: { type: 'string', maxLength: 3 } }) },
      meta: { type: 'object', additionalProperties: { type: 'integer' } },
    })
    const findings = diffOpenAPI(api({ request: base }), api({ request: head }))
    expect(findings.map((f) => [f.rule, f.pointer])).toEqual([
      [
        'request-bound-tightened',
        '/paths/~1items~1{id}/post/requestBody/content/application~1json/schema/properties/tags/items/properties/name/maxLength',
      ],
      [
        'request-type-changed',
        '/paths/~1items~1{id}/post/requestBody/content/application~1json/schema/properties/meta/additionalProperties',
      ],
    ])
    expect(findings[0]!.message).toBe(
      'request `body.tags[].name`: maxLength tightened (POST /items/{id})',
    )
  })

  it('treats 3.0 nullable and 3.1 type arrays (and a null union branch) alike', () => {
    const v30 = api({
      openapi: '3.0.3',
      response: object({ a: { type: 'string', nullable: true } }, ['a']),
    })
    const v31 = api({ response: object({ a: { type: ['string', 'null'] } }, ['a']) })
    const union = api({ response: object({ a: { oneOf: [str, { type: 'null' }] } }, ['a']) })
    expect(diffOpenAPI(v30, v31)).toEqual([])
    expect(diffOpenAPI(v31, union)).toEqual([])
    const plain = api({ openapi: '3.0.3', response: object({ a: str }, ['a']) })
    expect(breaking(diffOpenAPI(plain, v31))).toEqual(['response-nullable-added'])
  })

  it('follows $ref cycles, reporting a change to a shared component once with every operation it reaches', () => {
    const schemas = (name: object) => ({
      Node: object({ name, child: { $ref: '#/components/schemas/Node' } }, ['name']),
    })
    const paths = {
      '/a': {
        get: {
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
            },
          },
        },
      },
      '/b': {
        get: {
          responses: {
            '200': {
              description: 'ok',
              content: {
                'application/json': {
                  schema: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
                },
              },
            },
          },
        },
      },
    }
    const findings = diffOpenAPI(
      api({ paths, schemas: schemas(str) }),
      api({ paths, schemas: schemas({ type: ['string', 'null'] }) }),
    )
    expect(findings).toEqual([
      {
        level: 'breaking',
        rule: 'response-nullable-added',
        document: 'head',
        pointer: '/components/schemas/Node/properties/name',
        message: 'response `Node.name`: may now be null (GET /a and 1 more operations)',
        operations: ['GET /a', 'GET /b'],
      },
    ])
  })

  it('merges allOf and matches oneOf branches by the component they name', () => {
    const schemas = {
      Cat: object({ meow: str }, ['meow']),
      Dog: object({ bark: str }),
      Fish: object({ fin: str }),
    }
    const all = (extra: Record<string, unknown>) => ({
      allOf: [{ $ref: '#/components/schemas/Dog' }, object({}, [], extra)],
    })
    expect(
      breaking(
        diffOpenAPI(
          api({ schemas, request: all({}) }),
          api({ schemas, request: all({ required: ['bark'] }) }),
        ),
      ),
    ).toEqual(['request-property-became-required'])
    const union = (...names: string[]) => ({
      oneOf: names.map((n) => ({ $ref: `#/components/schemas/${n}` })),
    })
    expect(
      breaking(
        diffOpenAPI(
          api({ schemas, response: union('Cat', 'Dog') }),
          api({ schemas, response: union('Dog', 'Cat', 'Fish') }),
        ),
      ),
    ).toEqual(['response-union-branch-added'])
    expect(
      breaking(
        diffOpenAPI(
          api({ schemas, request: union('Cat', 'Dog') }),
          api({ schemas, request: union('Dog') }),
        ),
      ),
    ).toEqual(['request-union-branch-removed'])
    expect(
      diffOpenAPI(
        api({ schemas, request: union('Cat', 'Dog') }),
        api({ schemas, request: union('Dog', 'Cat') }),
      ),
    ).toEqual([])
  })

  it('reports removed operations, statuses and media types', () => {
    const base = api({ response: object({}) })
    ;(base.paths as any)['/gone'] = { delete: { responses: { '204': { description: 'x' } } } }
    ;(base.paths as any)['/items/{id}'].post.responses['201'] = { description: 'created' }
    ;(base.paths as any)['/items/{id}'].post.responses['409'] = { description: 'conflict' }
    ;(base.paths as any)['/items/{id}'].post.responses['200'].content['text/csv'] = { schema: str }
    const head = api({ response: object({}) })
    expect(rules(diffOpenAPI(base, head))).toEqual([
      'breaking response-media-type-removed',
      'breaking response-success-status-removed',
      'breaking operation-removed',
      'warning response-non-success-status-removed',
    ])
  })

  it("judges a deprecated operation's removal by its sunset (x-sunset), as announced", () => {
    const gone = (extra: object) => {
      const base = api({})
      ;(base.paths as any)['/old'] = {
        get: { deprecated: true, ...extra, responses: { '200': { description: 'x' } } },
      }
      return diffOpenAPI(base, api({})).map((f) => [f.level, f.rule, f.message])
    }
    expect(gone({})).toEqual([
      ['warning', 'deprecated-operation-removed', 'operation GET /old removed (it was deprecated)'],
    ])
    expect(gone({ 'x-sunset': '2020-01-31' })).toEqual([
      [
        'info',
        'operation-removed-after-sunset',
        'operation GET /old removed (its sunset, 2020-01-31, has passed)',
      ],
    ])
    expect(gone({ 'x-sunset': '2999-12-31' })).toEqual([
      [
        'breaking',
        'operation-removed-before-sunset',
        'operation GET /old removed before its sunset (2999-12-31)',
      ],
    ])
  })

  it('matches routes whose path parameters were renamed, and judges parameters by location', () => {
    const op = (parameters: object[]) => ({
      '/items/{itemId}': { get: { parameters, responses: { '200': { description: 'ok' } } } },
    })
    const id = { name: 'itemId', in: 'path', required: true, schema: str }
    const renamed = {
      '/items/{id}': {
        get: { parameters: [{ ...id, name: 'id' }], responses: { '200': { description: 'ok' } } },
      },
    }
    expect(diffOpenAPI(api({ paths: op([id]) }), api({ paths: renamed }))).toEqual([])
    const q = { name: 'q', in: 'query', schema: str }
    expect(
      rules(
        diffOpenAPI(api({ paths: op([id]) }), api({ paths: op([id, { ...q, required: true }]) })),
      ),
    ).toEqual(['breaking request-parameter-added-required'])
    expect(
      rules(
        diffOpenAPI(
          api({ paths: op([id, q]) }),
          api({ paths: op([id, { ...q, required: true }]) }),
        ),
      ),
    ).toEqual(['breaking request-parameter-became-required'])
    expect(rules(diffOpenAPI(api({ paths: op([id, q]) }), api({ paths: op([id]) })))).toEqual([
      'info request-parameter-removed',
    ])
    const header = { name: 'X-Tenant', in: 'header', required: true, schema: str }
    expect(rules(diffOpenAPI(api({ paths: op([id]) }), api({ paths: op([id, header]) })))).toEqual([
      'breaking request-parameter-added-required',
    ])
    expect(
      rules(
        diffOpenAPI(
          api({ paths: op([id, q]) }),
          api({ paths: op([id, { ...q, schema: { type: 'integer' } }]) }),
        ),
      ),
    ).toEqual(['breaking request-type-changed'])
  })

  it('reports a request body newly required and a request media type removed', () => {
    const none = api({})
    const body = api({ request: object({}) })
    expect(rules(diffOpenAPI(none, body))).toEqual(['breaking request-body-added-required'])
    const optional = structuredClone(body) as any
    optional.paths['/items/{id}'].post.requestBody.required = false
    expect(rules(diffOpenAPI(optional, body))).toEqual(['breaking request-body-became-required'])
    const two = structuredClone(body) as any
    two.paths['/items/{id}'].post.requestBody.content['application/x-www-form-urlencoded'] = {
      schema: object({}),
    }
    expect(rules(diffOpenAPI(two, body))).toEqual(['breaking request-media-type-removed'])
  })

  it('reports security added to an operation, or made stricter, and a scheme that sends credentials differently', () => {
    const securitySchemes = {
      key: { type: 'apiKey', in: 'header', name: 'X-Key' },
      oauth: { type: 'oauth2', flows: {} },
    }
    const secured = (security: unknown) =>
      api({ securitySchemes, operation: security === undefined ? {} : { security } })
    expect(rules(diffOpenAPI(secured(undefined), secured([{ key: [] }])))).toEqual([
      'breaking security-added',
    ])
    expect(rules(diffOpenAPI(secured([{}, { key: [] }]), secured([{ key: [] }])))).toEqual([
      'breaking security-added',
    ])
    expect(
      rules(
        diffOpenAPI(secured([{ key: [] }, { oauth: ['read'] }]), secured([{ oauth: ['read'] }])),
      ),
    ).toEqual(['breaking security-stricter'])
    expect(
      rules(diffOpenAPI(secured([{ oauth: ['read'] }]), secured([{ oauth: ['read', 'write'] }]))),
    ).toEqual(['breaking security-stricter'])
    expect(diffOpenAPI(secured([{ key: [] }]), secured([{ key: [] }, { oauth: [] }]))).toEqual([])
    expect(
      diffOpenAPI(api({ securitySchemes, security: [{ key: [] }] }), secured([{ key: [] }])),
    ).toEqual([])
    const moved = api({
      securitySchemes: { ...securitySchemes, key: { type: 'apiKey', in: 'query', name: 'key' } },
    })
    expect(rules(diffOpenAPI(api({ securitySchemes }), moved))).toEqual([
      'breaking security-scheme-changed',
    ])
  })

  it('ignores readOnly properties in requests and writeOnly ones in responses', () => {
    expect(
      both(
        object({ id: { type: 'string', readOnly: true } }),
        object({ id: { type: 'integer', readOnly: true } }, ['id']),
      ).request,
    ).toEqual([])
    expect(
      both(object({ pw: { type: 'string', writeOnly: true } }, ['pw']), object({})).response,
    ).toEqual([])
  })

  it('names paths and keywords in its messages, never a value of the documents', () => {
    const base = object({
      code: { type: 'string', enum: ['SECRET-A', 'SECRET-B'], pattern: '^SECRET', maxLength: 99 },
    })
    const head = object({
      code: { type: 'string', enum: ['SECRET-A'], pattern: '^SECRET-X', maxLength: 42 },
    })
    const findings = diffOpenAPI(api({ request: base }), api({ request: head }))
    expect(findings.length).toBe(3)
    for (const f of findings) expect(f.message).not.toMatch(/SECRET|99|42/)
  })

  it('refuses what is not an OpenAPI 3 document', () => {
    expect(() => diffOpenAPI({ swagger: '2.0', paths: {} }, api({}))).toThrow(
      /the base document is not an OpenAPI 3.x document/,
    )
    expect(() => diffOpenAPI(api({}), null)).toThrow(/the head document/)
  })

  it('describes every rule it can report', () => {
    for (const [id, spec] of Object.entries(diffRules)) {
      expect(id).toMatch(/^[a-z]+(-[a-z]+)+$/)
      expect(spec.help).toMatch(/\.$/)
    }
  })
})
