import { createHmac } from 'node:crypto'
import { Validator } from '@seriousme/openapi-schema-validator'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { generateOpenAPI, type OpenAPIConfig } from '../../../src/openapi/index.js'
import { handle } from '../../../src/runtime/pipeline/handle.js'
import { file } from '../../../src/shared/file-field.js'
import { hosts } from '../../support/e2e.js'
import { misuse } from '../../support/misuse.js'

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

const profile = {
  summary: 'Update the profile',
  files: {
    avatar: file({ types: ['image/png', 'image/jpeg'], description: 'A square picture' }),
    photos: file.many({ types: ['image/*'], max: 5 }),
    cv: file({ types: ['application/pdf'], optional: true }),
    extra: file({ optional: true }),
  },
  body: z.object({ title: z.string(), age: z.coerce.number().int().optional() }),
  cookies: z.object({ theme: z.enum(['dark', 'light']).optional() }),
  signedCookies: z.object({ session: z.string().describe('The session id') }),
}

const binary = (contentMediaType = 'application/octet-stream') => ({
  type: 'string',
  format: 'binary',
  contentMediaType,
})

describe('generateOpenAPI: a route with files', () => {
  const { doc, warnings, op } = gen({ routes: { 'POST /profile': profile } })
  const body = op('/profile', 'post').requestBody

  it('documents multipart/form-data: text fields as the body schema writes them, one binary part per file field', () => {
    expect(warnings).toEqual([])
    expect(Object.keys(body.content)).toEqual(['multipart/form-data'])
    expect(body.required).toBe(true)
    expect(body.content['multipart/form-data'].schema).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string' },
        age: {
          type: 'integer',
          minimum: Number.MIN_SAFE_INTEGER,
          maximum: Number.MAX_SAFE_INTEGER,
        },
        avatar: { ...binary(), description: 'A square picture' },
        photos: { type: 'array', items: binary(), minItems: 1, maxItems: 5 },
        cv: binary('application/pdf'),
        extra: binary(),
      },
      required: ['title', 'avatar', 'photos'],
    })
  })

  it("gives each field's allowed types in encoding, families kept", () => {
    expect(body.content['multipart/form-data'].encoding).toEqual({
      avatar: { contentType: 'image/png, image/jpeg' },
      photos: { contentType: 'image/*' },
      cv: { contentType: 'application/pdf' },
    })
  })

  it('documents 413 and 415 as refusals of an upload too', () => {
    const responses = op('/profile', 'post').responses
    expect(responses['413']).toEqual({ $ref: '#/components/responses/UploadTooLarge' })
    expect(responses['415']).toEqual({ $ref: '#/components/responses/UnsupportedUpload' })
    const shared = doc.components.responses as Record<string, any>
    expect(shared.UploadTooLarge.description).toContain('`PAYLOAD_TOO_LARGE`')
    expect(shared.UnsupportedUpload.description).toContain('`INVALID_CONTENT_TYPE`')
    // Only what some operation uses is listed.
    expect(shared).not.toHaveProperty('PayloadTooLarge')
  })

  it('documents cookies and signed cookies as in: cookie parameters, required as the schema says', () => {
    expect(op('/profile', 'post').parameters).toEqual([
      {
        name: 'theme',
        in: 'cookie',
        required: false,
        schema: { type: 'string', enum: ['dark', 'light'] },
      },
      {
        name: 'session',
        in: 'cookie',
        required: true,
        schema: { type: 'string', pattern: '^s:[\\s\\S]*\\.[A-Za-z0-9+/]{43}$' },
        description:
          'The session id. Signed: sent as `s:<value>.<signature>`, as cookie-parser signs it.',
      },
    ])
  })

  it("writes a signed cookie's schema as the string cookie-parser sends", () => {
    // cookie-parser's signing (cookie-signature): the value, a dot, its HMAC-SHA256 in base64 without padding.
    const sig = createHmac('sha256', 'secret').update('abc.def').digest('base64').replace(/=+$/, '')
    const pattern = new RegExp(op('/profile', 'post').parameters[1].schema.pattern)
    expect(pattern.test(`s:abc.def.${sig}`)).toBe(true)
    expect(pattern.test('abc.def')).toBe(false)
  })

  it('is valid OpenAPI 3.1, and ajv compiles the body schema as JSON Schema 2020-12', async () => {
    expect(await new Validator().validate(structuredClone(doc) as never)).toEqual({ valid: true })
    const ajv = new Ajv2020({ strict: true, strictTypes: false })
    addFormats(ajv)
    ajv.addVocabulary(['example'])
    const check = ajv.compile(body.content['multipart/form-data'].schema)
    expect(check({ title: 'x', avatar: 'bytes', photos: ['a'] })).toBe(true)
    expect(check({ title: 'x', avatar: 'bytes', photos: ['a', 'b', 'c', 'd', 'e', 'f'] })).toBe(
      false,
    )
    expect(check({ title: 'x', photos: ['a'] })).toBe(false)
  })
})

describe('generateOpenAPI: files beside other body shapes', () => {
  it('documents a files route without a body schema, optional when every file is', () => {
    const { op } = gen({
      routes: {
        'PUT /a': { files: { doc: file() } },
        'PUT /b': { files: { doc: file({ optional: true }), more: file.many({ optional: true }) } },
      },
    })
    expect(op('/a', 'put').requestBody).toEqual({
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', properties: { doc: binary() }, required: ['doc'] },
        },
      },
    })
    const b = op('/b', 'put').requestBody
    expect(b.required).toBe(false)
    expect(b.content['multipart/form-data'].schema).toEqual({
      type: 'object',
      properties: { doc: binary(), more: { type: 'array', items: binary(), maxItems: 10 } },
    })
  })

  it('merges a named body schema in place of its $ref, and keeps a union beside the files', () => {
    const Meta = z.object({ title: z.string() }).meta({ id: 'Meta' })
    const { op, doc } = gen({
      components: { Meta },
      routes: {
        'POST /named': { body: Meta, files: { doc: file() } },
        'POST /union': {
          body: z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]),
          files: { doc: file() },
        },
      },
    })
    const named = op('/named', 'post').requestBody.content['multipart/form-data'].schema
    expect(named.properties).toEqual({ title: { type: 'string' }, doc: binary() })
    expect(named.required).toEqual(['title', 'doc'])
    expect((doc.components.schemas as any).Meta.properties).not.toHaveProperty('doc')
    const union = op('/union', 'post').requestBody.content['multipart/form-data'].schema
    expect(union.allOf).toHaveLength(2)
    expect(union.allOf[1]).toEqual({
      type: 'object',
      properties: { doc: binary() },
      required: ['doc'],
    })
  })

  it('documents files as multipart/form-data whatever bodyType says, warning of json or form', () => {
    const { op, warnings } = gen({
      routes: {
        'POST /json': { bodyType: 'json', files: { doc: file() } },
        'POST /form': { bodyType: 'form', files: { doc: file() } },
        'POST /multi': { bodyType: 'multipart', files: { doc: file() } },
      },
    })
    for (const path of ['/json', '/form', '/multi'])
      expect(Object.keys(op(path, 'post').requestBody.content)).toEqual(['multipart/form-data'])
    expect(warnings).toEqual([
      `shapeguard: routes["POST /json"] has files, which are read as multipart/form-data; its bodyType 'json' is not documented`,
      `shapeguard: routes["POST /form"] has files, which are read as multipart/form-data; its bodyType 'form' is not documented`,
    ])
  })

  it('makes only declared fields binary: a text field named file stays text, one named like a file field is the file', () => {
    const { op, warnings } = gen({
      routes: {
        'POST /x': {
          body: z.object({ file: z.string(), avatar: z.string() }),
          files: { avatar: file() },
        },
        // Without files, the name-based guess (fields named file, avatar…) still applies.
        'POST /guess': { bodyType: 'multipart', body: z.object({ file: z.any() }) },
      },
    })
    const x = op('/x', 'post').requestBody.content['multipart/form-data'].schema
    expect(x.properties).toEqual({ file: { type: 'string' }, avatar: binary() })
    expect(x.required).toEqual(['file', 'avatar'])
    expect(warnings).toEqual([
      'shapeguard: routes["POST /x"] body declares "avatar", which is a file field; documented as the file',
    ])
    const guess = op('/guess', 'post').requestBody.content['multipart/form-data'].schema
    expect(guess.properties.file).toMatchObject({ format: 'binary' })
  })

  it('throws a TypeError naming a files entry that is no file field', () => {
    expect(() =>
      gen({ routes: { 'POST /x': { files: { doc: { many: false } } } as never } }),
    ).toThrow(
      misuse(
        'SG_ERR_INVALID_OPTION',
        'shapeguard: generateOpenAPI(): routes["POST /x"].files.doc must be a field made by file() or file.many()',
      ),
    )
    expect(() => gen({ routes: { 'POST /x': { files: 'doc' } as never } })).toThrow(
      misuse(
        'SG_ERR_INVALID_OPTION',
        'shapeguard: generateOpenAPI(): routes["POST /x"].files must be an object of field name → file() or file.many()',
      ),
    )
  })
})

describe('generateOpenAPI: cookies', () => {
  it('documents a cookie both plain and signed once, with a warning', () => {
    const { op, warnings } = gen({
      routes: {
        'GET /me': {
          cookies: z.object({ sid: z.string() }),
          signedCookies: z.object({ sid: z.string() }),
        },
      },
    })
    expect(op('/me', 'get').parameters.map((p: any) => [p.name, p.in])).toEqual([['sid', 'cookie']])
    expect(warnings).toEqual([
      'shapeguard: routes["GET /me"] declares the cookie "sid" in cookies and signedCookies; documented once',
    ])
  })

  it('warns about a cookies schema that is no object, as of other parameter parts', () => {
    const { op, warnings } = gen({ routes: { 'GET /me': { cookies: z.string() } } })
    expect(op('/me', 'get').parameters).toBeUndefined()
    expect(warnings).toEqual([
      'shapeguard: routes["GET /me"] cookies is not an object schema; its parameters are not documented',
    ])
  })
})

describe.each(hosts)('generateOpenAPI: files and cookies of a %s app', (_, express) => {
  it('documents a handle() route with files and cookies found on the app', () => {
    const app = express()
    app.post('/profile', ...handle(profile, (_req, res) => res.end()))
    const { op, warnings } = gen({ app })
    expect(warnings).toEqual([])
    const found = op('/profile', 'post')
    expect(Object.keys(found.requestBody.content)).toEqual(['multipart/form-data'])
    expect(found.parameters.map((p: any) => `${p.in} ${p.name}`)).toEqual([
      'cookie theme',
      'cookie session',
    ])
  })
})
