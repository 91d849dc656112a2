import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { array, boolean, date, number, object, string } from 'yup'
import * as z from 'zod'
import { valibotAdapter } from '../../../src/adapters/valibot/index.js'
import { yupAdapter } from '../../../src/adapters/yup/index.js'
import { expandOptional } from '../../../src/openapi/generate/route-key.js'
import { generateOpenAPI, type OpenAPIConfig } from '../../../src/openapi/index.js'
import { handle } from '../../../src/runtime/pipeline/handle.js'
import { validate } from '../../../src/runtime/pipeline/validate.js'
import { hosts } from '../../support/e2e.js'
import { misuse } from '../../support/misuse.js'

const ok = (_req: unknown, res: { end(): void }) => res.end()

/** Generates with warnings collected (never printed). */
function gen(config: Omit<OpenAPIConfig, 'title' | 'version'>) {
  const warnings: string[] = []
  const doc = generateOpenAPI({
    title: 'Test',
    version: '1.0.0',
    onWarning: (m) => warnings.push(m),
    ...config,
  })
  return { doc, warnings, op: (path: string, method: string) => doc.paths[path]?.[method] as any }
}

describe('generateOpenAPI: paths and operationIds', () => {
  it('converts route keys: any method case, :param to {param}, trailing slash, prefix', () => {
    const { doc } = gen({
      prefix: '/api/v1/',
      routes: {
        'post /users/': {},
        'Get /users/:id': {},
        'DELETE /users/:id/posts': {},
        'GET /': {},
      },
    })
    expect(Object.keys(doc.paths)).toEqual([
      '/api/v1/users',
      '/api/v1/users/{id}',
      '/api/v1/users/{id}/posts',
      '/api/v1',
    ])
    // The prefix is left out of operationIds, so they stay when it changes.
    expect((doc.paths['/api/v1/users/{id}']!.get as { operationId: string }).operationId).toBe(
      'getUsersId',
    )
  })

  it('expands optional segments of Express 4 and 5 into each path, shortest first', () => {
    expect(expandOptional('/files{/:name}')).toEqual(['/files', '/files/:name'])
    expect(expandOptional('/a/:b?/c')).toEqual(['/a/c', '/a/:b/c'])
    expect(expandOptional('/x{.:ext}{/:v}')).toEqual(['/x', '/x/:v', '/x.:ext', '/x.:ext/:v'])
    expect(expandOptional('/users/{id}')).toEqual(['/users/{id}'])
    const { doc } = gen({ routes: { 'GET /files{/:name}': {} } })
    expect(Object.keys(doc.paths)).toEqual(['/files', '/files/{name}'])
  })

  it('keeps the first of two keys for one method and path, with a warning', () => {
    const { op, warnings } = gen({
      routes: { 'GET /x': { summary: 'first' }, 'get /x/': { summary: 'second' } },
    })
    expect(op('/x', 'get').summary).toBe('first')
    expect(warnings).toEqual([expect.stringMatching(/GET \/x again; the first is kept/)])
  })

  it('derives operationIds from method and path, camel-casing other segments', () => {
    const { op } = gen({
      routes: {
        'POST /users': {},
        'GET /users/:id': {},
        'DELETE /users/:id/posts': {},
        'GET /': {},
        'POST /user-profiles': {},
        'GET /v1.2/items': {},
      },
    })
    expect(op('/users', 'post').operationId).toBe('postUsers')
    expect(op('/users/{id}', 'get').operationId).toBe('getUsersId')
    expect(op('/users/{id}/posts', 'delete').operationId).toBe('deleteUsersIdPosts')
    expect(op('/', 'get').operationId).toBe('getRoot')
    expect(op('/user-profiles', 'post').operationId).toBe('postUserProfiles')
    expect(op('/v1.2/items', 'get').operationId).toBe('getV12Items')
  })

  it('makes colliding operationIds unique, with a warning', () => {
    const { op, warnings } = gen({
      routes: { 'GET /a-b': {}, 'GET /a_b': {}, 'GET /x': { operationId: 'getAB' } },
    })
    expect(
      [op('/a-b', 'get'), op('/a_b', 'get'), op('/x', 'get')].map((o) => o.operationId),
    ).toEqual(['getAB', 'getAB2', 'getAB3'])
    expect(warnings).toHaveLength(2)
  })
})

describe('generateOpenAPI: responses', () => {
  it('documents success under the status the runtime sends: 201 for POST, 200 otherwise', () => {
    const { op } = gen({ routes: { 'POST /a': {}, 'GET /a': {}, 'PUT /a': {}, 'DELETE /a': {} } })
    expect(Object.keys(op('/a', 'post').responses)).toEqual([
      '201',
      '400',
      '413',
      '415',
      '422',
      '500',
    ])
    for (const m of ['get', 'put', 'delete']) expect(op('/a', m).responses).toHaveProperty('200')
    const custom = gen({ response: { statusCodes: { POST: 200 } }, routes: { 'POST /a': {} } })
    expect(custom.op('/a', 'post').responses).toHaveProperty('200')
    expect(custom.op('/a', 'post').responses).not.toHaveProperty('201')
  })

  it('puts the response schema (output mode) as data in the success envelope', () => {
    const { op } = gen({
      routes: { 'GET /a': { response: z.object({ n: z.number().default(1) }) } },
    })
    expect(op('/a', 'get').responses['200'].content['application/json'].schema).toEqual({
      type: 'object',
      properties: {
        success: { type: 'boolean', const: true },
        message: { type: 'string' },
        data: {
          type: 'object',
          properties: { n: { type: 'number', default: 1 } },
          required: ['n'],
          additionalProperties: false,
        },
      },
      required: ['success', 'message', 'data'],
    })
  })

  it('adds 401/403 when security applies, not for security: [], and 429 with headers for rateLimit', () => {
    const { op, doc } = gen({
      auth: { bearer: { type: 'bearer', bearerFormat: 'JWT', verify: () => ({ id: 1 }) } },
      defaultSecurity: ['bearer'],
      routes: {
        'GET /private': { rateLimit: { windowMs: 1000, max: 5 } },
        'GET /public': { security: [] },
      },
    })
    const priv = op('/private', 'get')
    expect(Object.keys(priv.responses)).toEqual(['200', '400', '401', '403', '422', '429', '500'])
    expect(priv.security).toEqual([{ bearer: [] }])
    expect(Object.keys(priv.responses['200'].headers)).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
    ])
    expect(op('/public', 'get').security).toEqual([])
    expect(Object.keys(op('/public', 'get').responses)).toEqual(['200', '400', '422', '500'])
    const tooMany = doc.components.responses!.TooManyRequests as any
    expect(Object.keys(tooMany.headers)).toEqual([
      'Retry-After',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
    ])
    const limited = doc.components.schemas!.RateLimitErrorEnvelope as any
    expect(limited.properties.error.properties.details.required).toEqual(['retryAfter'])
    expect(doc.components.securitySchemes).toEqual({
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    })
  })

  it('adds 413/415 where a body is parsed, and 503 for a store that does not fail open', () => {
    const store = { increment: () => ({ count: 1, reset: 0 }) }
    const { op, doc } = gen({
      routes: {
        'GET /a': {},
        'DELETE /a': { body: z.object({ ids: z.array(z.number()) }) },
        'PATCH /a': {},
        'GET /closed': { rateLimit: { windowMs: 1000, max: 5, store, failOpen: false } },
        'GET /open': { rateLimit: { windowMs: 1000, max: 5, store } },
      },
    })
    expect(Object.keys(op('/a', 'get').responses)).toEqual(['200', '400', '422', '500'])
    expect(op('/a', 'delete').responses).toHaveProperty('415')
    expect(op('/a', 'patch').responses).toHaveProperty('413')
    expect(Object.keys(op('/closed', 'get').responses)).toEqual([
      '200',
      '400',
      '422',
      '429',
      '500',
      '503',
    ])
    expect(op('/open', 'get').responses).not.toHaveProperty('503')
    const responses = doc.components.responses as Record<string, { description: string }>
    expect(responses.UnsupportedMediaType!.description).toContain('`INVALID_CONTENT_TYPE`')
    expect(responses.PayloadTooLarge!.description).toContain('`PAYLOAD_TOO_LARGE`')
    expect(responses.ServiceUnavailable!.description).toContain('`RATE_LIMIT_UNAVAILABLE`')
    expect(responses.BadRequest!.description).not.toContain('`INVALID_CONTENT_TYPE`')
  })

  it('shapes the envelopes by response.shape', () => {
    const { doc, op } = gen({
      response: { shape: { ok: '{success}', result: '{data}', note: '{message}' } },
      routes: { 'GET /a': {} },
    })
    const success = op('/a', 'get').responses['200'].content['application/json'].schema
    expect(Object.keys(success.properties)).toEqual(['ok', 'note', 'result'])
    const error = doc.components.schemas!.ErrorEnvelope as any
    expect(Object.keys(error.properties)).toEqual(['ok', 'note', 'error'])
    expect(error.properties.error.required).toEqual(['code', 'message', 'details'])
  })

  it('documents responseHeaders and Cache-Control on the success response', () => {
    const { op } = gen({
      routes: {
        'GET /a': {
          cache: { maxAge: 60 },
          responseHeaders: {
            'X-Total': { description: 'Total count', schema: z.number().int() },
            ETag: { description: 'Version' },
            // JSON Schema as an object without a prototype is JSON Schema still.
            'X-Plain': {
              description: 'p',
              schema: Object.assign(Object.create(null), { type: 'string' }),
            },
          },
        },
      },
    })
    const headers = op('/a', 'get').responses['200'].headers
    expect(headers['X-Plain'].schema).toEqual({ type: 'string' })
    expect(headers['X-Total']).toEqual({
      description: 'Total count',
      schema: {
        type: 'integer',
        minimum: Number.MIN_SAFE_INTEGER,
        maximum: Number.MAX_SAFE_INTEGER,
      },
    })
    expect(headers.ETag.schema).toEqual({ type: 'string' })
    expect(headers['Cache-Control']).toBeDefined()
  })
})

describe('generateOpenAPI: document fields and route options', () => {
  it('writes info, servers, tags, externalDocs, extensions, and operation options', () => {
    const { doc, op } = gen({
      description: 'd',
      termsOfService: 'https://example.test/tos',
      contact: { name: 'A', email: 'a@example.test' },
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      servers: [{ url: 'https://api.example.test', description: 'prod' }],
      tags: [{ name: 'users', description: 'Users' }],
      externalDocs: { url: 'https://docs.example.test' },
      extensions: { 'x-root': 1 },
      routes: {
        'GET /a': {
          summary: 's',
          description: 'long',
          tags: ['users'],
          deprecated: true,
          externalDocs: { url: 'https://docs.example.test/a' },
          extensions: { 'x-internal': true },
        },
      },
    })
    expect(doc.info).toEqual({
      title: 'Test',
      version: '1.0.0',
      description: 'd',
      termsOfService: 'https://example.test/tos',
      contact: { name: 'A', email: 'a@example.test' },
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    })
    expect(doc.servers).toEqual([{ url: 'https://api.example.test', description: 'prod' }])
    expect(doc.tags).toEqual([{ name: 'users', description: 'Users' }])
    expect(doc.externalDocs).toEqual({ url: 'https://docs.example.test' })
    expect(doc['x-root']).toBe(1)
    expect(op('/a', 'get')).toMatchObject({
      summary: 's',
      description: 'long',
      tags: ['users'],
      deprecated: true,
      externalDocs: { url: 'https://docs.example.test/a' },
      'x-internal': true,
    })
  })

  it('throws a TypeError naming the option for a bad configuration', () => {
    const bad = (config: object, pattern: RegExp) =>
      expect(() =>
        generateOpenAPI({ title: 'T', version: '1', routes: {}, ...config } as never),
      ).toThrow(pattern)
    bad({ title: '' }, /title must be a non-empty string/)
    bad({ routes: { 'FETCH /x': {} } }, /routes key "FETCH \/x"/)
    bad({ routes: { 'GET x': {} } }, /routes key/)
    bad({ defaultSecurity: ['nope'] }, /defaultSecurity: "nope" is not a scheme of auth/)
    bad(
      {
        auth: { a: { type: 'basic', verify: () => 1 } },
        routes: { 'GET /x': { security: ['b'] } },
      },
      /GET \/x"\]\.security: "b" is not a scheme of auth \(a\)/,
    )
    bad({ routes: { 'GET /x': { bodyType: 'xml' } } }, /bodyType/)
    bad({ routes: { 'GET /x': { extensions: ['x-a'] } } }, /extensions must be an object/)
    bad({ prefix: 'api v2' }, /prefix must be a URL path/)
    bad({ prefix: 2 }, /prefix must be a URL path/)
    bad({ response: { shape: ['{data}'] } }, /response.shape must be an object/)
    bad({ response: { shape: { x: 'data' } } }, /response.shape.x must be \{success\}/)
    bad({ response: { shape: { x: 'constructor' } } }, /response.shape.x must be/)
    bad(
      { response: { shape: JSON.parse('{"__proto__": "{data}"}') } },
      /response.shape must be without a field named __proto__/,
    )
    expect(() => generateOpenAPI({ title: 'T', version: '1' })).toThrow(/routes must be given/)
  })

  it('names a misspelt option with the valid ones, at the top and in response', () => {
    const config = { title: 'T', version: '1', routes: {} }
    expect(() => generateOpenAPI({ ...config, prefx: '/v1' } as never)).toThrow(
      misuse(
        'SG_ERR_UNKNOWN_OPTION',
        'shapeguard: generateOpenAPI(): prefx is not an option (title, version, description, termsOfService, contact, license, servers, prefix, routes, app, auth, defaultSecurity, tags, externalDocs, components, response, errors, extensions, onWarning)',
      ),
    )
    expect(() =>
      generateOpenAPI({ ...config, response: { statuscodes: { POST: 200 } } } as never),
    ).toThrow(
      /generateOpenAPI\(\): response.statuscodes is not an option \(shape, statusCodes, includeRequestId\)/,
    )
    // shapeguard()'s own response options pass as they are.
    expect(() =>
      generateOpenAPI({ ...config, response: { includeRequestId: true, statusCodes: {} } }),
    ).not.toThrow()
  })

  it('reads a prefix without its leading slash, or with a trailing one, as a path', () => {
    for (const prefix of ['api/v2', '/api/v2/', 'api/v2/', '/api/v2']) {
      const { doc } = gen({ prefix, routes: { 'GET /users/:id': {}, 'GET /': {} } })
      expect(Object.keys(doc.paths)).toEqual(['/api/v2/users/{id}', '/api/v2'])
    }
    expect(Object.keys(gen({ prefix: '/', routes: { 'GET /a': {} } }).doc.paths)).toEqual(['/a'])
  })

  it('writes an extension key without x- with the prefix, and warns', () => {
    const { doc, op, warnings } = gen({
      extensions: { logo: { url: '/l.png' }, 'x-kept': 1 } as never,
      routes: {
        'GET /a': { extensions: { internal: true, 'x-owner': 'ops' } as never },
        // Given both ways, the x- key wins.
        'GET /b': { extensions: { 'x-tier': 'gold', tier: 'lead' } as never },
      },
    })
    expect(doc).toMatchObject({ 'x-logo': { url: '/l.png' }, 'x-kept': 1 })
    expect(doc).not.toHaveProperty('logo')
    expect(op('/a', 'get')).toMatchObject({ 'x-internal': true, 'x-owner': 'ops' })
    expect(op('/a', 'get')).not.toHaveProperty('internal')
    expect(op('/b', 'get')['x-tier']).toBe('gold')
    expect(warnings).toEqual([
      'shapeguard: routes["GET /a"].extensions.internal is written as x-internal (OpenAPI extension keys start with x-)',
      'shapeguard: routes["GET /b"].extensions.tier is written as x-tier (OpenAPI extension keys start with x-)',
      'shapeguard: extensions.logo is written as x-logo (OpenAPI extension keys start with x-)',
    ])
  })
})

describe('generateOpenAPI: parameters and bodies', () => {
  it('documents params, query and headers as parameters with their own schemas', () => {
    const { op } = gen({
      routes: {
        'GET /users/:id/:other': {
          params: z.object({ id: z.uuid().describe('The user') }),
          query: z.object({
            tag: z.array(z.string()).optional(),
            page: z.coerce.number().int().min(1).default(1),
            q: z.string(),
          }),
          headers: z.object({ 'x-tenant': z.string(), authorization: z.string() }),
        },
      },
    })
    const params = op('/users/{id}/{other}', 'get').parameters
    expect(params.map((p: any) => [p.in, p.name, p.required])).toEqual([
      ['path', 'id', true],
      ['path', 'other', true],
      ['query', 'tag', false],
      ['query', 'page', false],
      ['query', 'q', true],
      ['header', 'x-tenant', true],
    ])
    expect(params[0]).toMatchObject({ description: 'The user', schema: { format: 'uuid' } })
    expect(params[2]).toMatchObject({ style: 'form', explode: true })
    // A query value is a string the schema coerces: documented as the type it means.
    expect(params[3].schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 })
  })

  it('writes multipart bodies with binary upload fields, and form bodies', () => {
    const { op } = gen({
      routes: {
        'POST /upload': {
          bodyType: 'multipart',
          body: z.object({
            title: z.string(),
            thumbnail: z.any().describe('Preview'),
            attachments: z.array(z.any()).optional(),
          }),
        },
        'POST /form': { bodyType: 'form', body: z.object({ n: z.coerce.number() }) },
      },
    })
    const upload = op('/upload', 'post').requestBody.content['multipart/form-data'].schema
    expect(upload.properties.thumbnail).toMatchObject({
      type: 'string',
      format: 'binary',
      description: 'Preview',
    })
    expect(upload.properties.attachments).toMatchObject({
      type: 'array',
      items: { format: 'binary' },
    })
    expect(upload.properties.title).toEqual({ type: 'string' })
    const named = gen({
      routes: {
        'POST /n': {
          bodyType: 'multipart',
          body: z.object({ file: z.any() }).meta({ id: 'Upload' }),
        },
      },
    })
    expect(
      named.op('/n', 'post').requestBody.content['multipart/form-data'].schema.properties.file,
    ).toMatchObject({ format: 'binary' })
    const form = op('/form', 'post').requestBody.content['application/x-www-form-urlencoded'].schema
    expect(form.properties.n).toEqual({ type: 'number' })
  })

  it('documents a JSON body in input mode: defaults optional, converted values typed', () => {
    const { op } = gen({
      routes: {
        'POST /a': { body: z.object({ n: z.coerce.number(), d: z.string().default('x') }) },
      },
    })
    const body = op('/a', 'post').requestBody
    expect(body.required).toBe(true)
    expect(body.content['application/json'].schema).toEqual({
      type: 'object',
      properties: {
        n: { type: ['number', 'string'], pattern: '^-?\\d{1,15}(?:\\.\\d+)?$' },
        d: { type: 'string', default: 'x' },
      },
      required: ['n'],
    })
  })

  it('keeps the type and bounds of every library’s converting fields in a JSON body', () => {
    const { op } = gen({
      routes: {
        'POST /yup': {
          body: yupAdapter(
            object({ qty: number().integer().min(0).required(), on: boolean(), at: date() }),
          ),
        },
        'POST /valibot': {
          body: valibotAdapter(
            v.object({ n: v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)) }),
          ),
        },
        'GET /yup': { query: yupAdapter(object({ at: date(), n: number().integer() })) },
      },
    })
    const yupBody = op('/yup', 'post').requestBody.content['application/json'].schema
    expect(yupBody.properties).toEqual({
      qty: { type: ['integer', 'string'], minimum: 0, pattern: '^\\d{1,15}$' },
      on: {
        type: ['boolean', 'string'],
        pattern: '^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[01])$',
      },
      at: { type: 'string', pattern: expect.stringMatching(/^\^\\d\{4\}-/) },
    })
    const valibotBody = op('/valibot', 'post').requestBody.content['application/json'].schema
    expect(valibotBody.properties.n).toEqual({ type: 'string', pattern: '^\\d{1,15}$' })
    // As parameters, a yup date and number are the types their strings mean.
    const query = Object.fromEntries(
      op('/yup', 'get').parameters.map((p: { name: string; schema: unknown }) => [
        p.name,
        p.schema,
      ]),
    )
    expect(query).toEqual({ at: { type: 'string', format: 'date-time' }, n: { type: 'integer' } })
  })
})

describe('generateOpenAPI: schemas of every library', () => {
  it('names schemas by zod .meta({ id }), valibot metadata({ id }), yup .meta({ id }) and components', () => {
    const Z = z.object({ a: z.string() }).meta({ id: 'ZodThing', description: 'From zod' })
    const V = valibotAdapter(
      v.pipe(v.object({ b: v.number() }), v.metadata({ id: 'ValibotThing' })),
    )
    const Y = yupAdapter(object({ c: string().required() }).meta({ id: 'YupThing' } as never))
    const Named = z.object({ d: z.boolean() })
    const { doc, op } = gen({
      components: { Named },
      routes: {
        'POST /z': { body: Z, response: Z },
        'POST /v': { body: V },
        'POST /y': { body: Y },
        'GET /named': { response: Named },
      },
    })
    const schemas = doc.components.schemas as Record<string, any>
    expect(schemas.ZodThing).toMatchObject({ description: 'From zod', required: ['a'] })
    expect(schemas.ZodThingOutput).toMatchObject({ additionalProperties: false })
    expect(schemas.ValibotThing).toMatchObject({ properties: { b: { type: 'number' } } })
    expect(schemas.YupThing).toMatchObject({ properties: { c: { type: 'string' } } })
    expect(schemas.Named).toMatchObject({ properties: { d: { type: 'boolean' } } })
    expect(op('/z', 'post').requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ZodThing',
    })
    expect(
      op('/named', 'get').responses['200'].content['application/json'].schema.properties.data,
    ).toEqual({
      $ref: '#/components/schemas/Named',
    })
  })

  it('takes titles, descriptions, examples and deprecated from each library’s metadata', () => {
    const { op } = gen({
      routes: {
        'POST /z': {
          body: z.object({
            a: z
              .string()
              .meta({ title: 'A', description: 'zod a', examples: ['x'], deprecated: true }),
          }),
        },
        'POST /v': {
          body: valibotAdapter(
            v.object({
              a: v.pipe(
                v.string(),
                v.title('A'),
                v.description('valibot a'),
                v.examples(['x']),
                v.metadata({ deprecated: true }),
              ),
            }),
          ),
        },
        'POST /y': {
          body: yupAdapter(
            object({
              a: string()
                .label('A')
                .meta({ description: 'yup a', examples: ['x'], deprecated: true } as never),
            }),
          ),
        },
      },
    })
    for (const [path, lib] of [
      ['/z', 'zod'],
      ['/v', 'valibot'],
      ['/y', 'yup'],
    ] as const) {
      const a = op(path, 'post').requestBody.content['application/json'].schema.properties.a
      expect(a).toMatchObject({
        title: 'A',
        description: `${lib} a`,
        examples: ['x'],
        deprecated: true,
      })
    }
  })

  it('never takes a schema id as a prototype key', () => {
    const { doc } = gen({
      routes: {
        'GET /a': { response: z.object({ a: z.string() }).meta({ id: '__proto__' }) },
        'GET /b': { response: z.object({ b: z.string() }).meta({ id: 'constructor' }) },
      },
    })
    const schemas = doc.components.schemas as Record<string, unknown>
    expect(Object.getPrototypeOf(schemas)).toBe(Object.prototype)
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['proto', 'constructor']))
  })

  it('puts recursive schemas in components with resolving $refs', () => {
    type Tree = { name: string; children: Tree[] }
    const Tree: z.ZodType<Tree> = z
      .object({ name: z.string(), children: z.array(z.lazy(() => Tree)) })
      .meta({ id: 'Tree' })
    const { doc, op } = gen({ routes: { 'GET /t': { response: Tree } } })
    const schemas = doc.components.schemas as Record<string, any>
    expect(schemas.Tree.properties.children.items).toEqual({ $ref: '#/components/schemas/Tree' })
    expect(
      op('/t', 'get').responses['200'].content['application/json'].schema.properties.data,
    ).toEqual({
      $ref: '#/components/schemas/Tree',
    })
    expect(Object.keys(schemas).filter((k) => k.startsWith('Tree'))).toEqual(['Tree'])
  })

  it('warns when two different schemas share an id, and names the second apart', () => {
    const { doc, warnings } = gen({
      routes: {
        'GET /a': { response: z.object({ a: z.string() }).meta({ id: 'Dup' }) },
        'GET /b': { response: z.object({ b: z.string() }).meta({ id: 'Dup' }) },
      },
    })
    expect(Object.keys(doc.components.schemas!)).toEqual(expect.arrayContaining(['Dup', 'Dup2']))
    expect(warnings.join('\n')).toMatch(/named "Dup"; the second is documented as Dup2/)
  })

  it('documents what only the library checks as any value, with a warning, never as a wrong type', () => {
    const { op, warnings } = gen({
      routes: {
        'POST /a': {
          body: z.object({
            m: z.map(z.string(), z.number()),
            s: z.string().refine((x) => x !== 'a'),
          }),
        },
        'POST /y': { body: yupAdapter(object({ n: number().required(), l: array(number()) })) },
      },
    })
    const schema = op('/a', 'post').requestBody.content['application/json'].schema
    expect(schema.properties.m).toEqual({})
    expect(schema.properties.s).toEqual({ type: 'string' })
    expect(warnings).toEqual([expect.stringMatching(/POST \/a|routes\["POST \/a"\] body.*map/)])
  })

  it('warns about a bare valibot or yup schema (no IR without its adapter)', () => {
    const { op, warnings } = gen({ routes: { 'POST /a': { body: v.object({ a: v.string() }) } } })
    expect(op('/a', 'post').requestBody.content['application/json'].schema).toEqual({})
    expect(warnings.join()).toMatch(/valibotAdapter/)
  })

  it('writes only 3.1 null style, never nullable', () => {
    const { doc } = gen({
      routes: {
        'POST /a': {
          body: z.object({
            a: z.string().nullable(),
            b: z.enum(['x']).nullable(),
            c: z.object({}).nullable(),
          }),
        },
      },
    })
    const text = JSON.stringify(doc)
    expect(text).not.toMatch(/"nullable"/)
    expect(text).toMatch(/"type":\["string","null"\]/)
  })
})

describe.each(hosts)('generateOpenAPI({ app }) on %s', (name, express) => {
  it('documents the app’s routes under prefix, an explicit routes entry winning', () => {
    const app = express()
    const router = express.Router()
    router.get(
      '/:id',
      ...handle({ summary: 'from the app', params: z.object({ id: z.uuid() }) }, ok),
    )
    router.post('/', validate({ summary: 'create', body: z.object({ a: z.string() }) }), ok)
    app.use('/items', router)
    const { doc, op, warnings } = gen({
      app,
      prefix: '/api',
      routes: { 'GET /items/:id/': { summary: 'explicit' } },
    })
    expect(warnings).toEqual([])
    expect(Object.keys(doc.paths)).toEqual(['/api/items/{id}', '/api/items'])
    expect(op('/api/items/{id}', 'get').summary).toBe('explicit')
    expect(op('/api/items', 'post').summary).toBe('create')
  })

  it('documents each path an optional segment matches', () => {
    const app = express()
    const path = name.endsWith('4') ? '/files/:name?' : '/files{/:name}'
    app.get(path, validate({ summary: 'files' }), ok)
    const { doc, warnings } = gen({ app })
    expect(warnings).toEqual([])
    expect(Object.keys(doc.paths)).toEqual(['/files', '/files/{name}'])
  })

  it('warns about routes it cannot read', () => {
    const app = express()
    app.get(/^\/x$/, validate({}), ok)
    expect(gen({ app }).warnings).toEqual([expect.stringMatching(/RegExp path is not documented/)])
  })
})
