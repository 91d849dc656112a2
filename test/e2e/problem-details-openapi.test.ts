import type { AddressInfo } from 'node:net'
import { Validator } from '@seriousme/openapi-schema-validator'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import createClient from 'openapi-fetch'
import openapiTS, { astToString } from 'openapi-typescript'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { configureLogger, type ShapeguardConfig, shapeguard } from '../../src/index.js'
import {
  createDocs,
  generateOpenAPI,
  type OpenAPIDocument,
  toBruno,
  toInsomnia,
  toPostman,
} from '../../src/openapi/index.js'
import { type Express, hosts } from '../support/e2e.js'
import { app, cases, PROBLEM } from '../support/problem-details-app.js'

// The OpenAPI document describes the error format the app uses: RFC 9457 problem details under
// application/problem+json, or the envelope; valid for the official validator either way, and
// every answer the app gives matches the schema its document names for it.

beforeAll(() => {
  configureLogger({ silent: true })
})

const problems: ShapeguardConfig = { errors: { format: 'problem+json' } }

function documentOf(target: ReturnType<typeof app>, extra: object = {}) {
  const warnings: string[] = []
  const doc = generateOpenAPI({
    title: 'Problems',
    version: '1.0.0',
    app: target,
    onWarning: (m) => warnings.push(m),
    ...extra,
  })
  return { doc, warnings }
}

type Json = Record<string, any>

/** The schema an error response names: the shared one its `code` narrowing extends. */
const named = (schema: Json | undefined): string | undefined =>
  schema?.$ref ?? schema?.allOf?.[0]?.$ref

/** The media types and schemas of every error response of the document. */
function errorContents(doc: OpenAPIDocument): { media: string; schema: string }[] {
  const out: { media: string; schema: string }[] = []
  for (const response of Object.values(doc.components.responses ?? {}) as Json[]) {
    for (const [media, content] of Object.entries(response.content as Json))
      out.push({ media, schema: named(content.schema) as string })
  }
  return out
}

/** A validator of the schema the document gives `status` on the operation, else `fallback`. */
function answerCheck(doc: OpenAPIDocument, media: string) {
  const ajv = new Ajv2020({ strict: false })
  addFormats(ajv)
  ajv.addSchema({ $id: 'doc', components: doc.components })
  return (method: string, path: string, status: number, body: unknown): string | undefined => {
    const openapi = path.replace(/:(\w+)/g, '{$1}')
    const op = (doc.paths[openapi] as Json | undefined)?.[method]
    let response = op?.responses?.[String(status)]
    if (response?.$ref) response = doc.components.responses?.[response.$ref.split('/').pop()]
    const name =
      named(response?.content?.[media]?.schema) ??
      (media === 'application/json'
        ? '#/components/schemas/ErrorEnvelope'
        : '#/components/schemas/ProblemDetails')
    if (response !== undefined && response.content[media] === undefined)
      return `${status} is documented without ${media}`
    const check = ajv.getSchema(`doc${name}`) ?? ajv.compile({ $ref: `doc${name}` })
    return check(body) ? undefined : `${status}: ${ajv.errorsText(check.errors)}`
  }
}

describe.each(hosts)('%s', (_, express) => {
  it("documents error answers as problem details when the app's shapeguard() writes them", () => {
    const { doc, warnings } = documentOf(app(express, problems))
    expect(warnings).toEqual([])
    const contents = errorContents(doc)
    expect(new Set(contents.map((c) => c.media))).toEqual(new Set(['application/problem+json']))
    expect(new Set(contents.map((c) => c.schema))).toEqual(
      new Set([
        '#/components/schemas/ProblemDetails',
        '#/components/schemas/ValidationProblem',
        '#/components/schemas/RateLimitProblem',
      ]),
    )
    const schemas = doc.components.schemas as Json
    expect(Object.keys(schemas)).not.toContain('ErrorEnvelope')
    expect(schemas.ProblemDetails.required).toEqual(['type', 'title', 'status', 'detail', 'code'])
    expect(schemas.ValidationIssue.properties.in).toEqual({
      enum: ['body', 'query', 'params', 'headers'],
      description: 'The request part.',
    })
    // Success answers stay in the envelope.
    const created = (doc.paths['/users'] as Json).post.responses['201']
    expect(Object.keys(created.content)).toEqual(['application/json'])
  })

  it('documents the envelope by default, unchanged by an explicit errors.format envelope', () => {
    const { doc } = documentOf(app(express))
    expect(new Set(errorContents(doc).map((c) => c.media))).toEqual(new Set(['application/json']))
    expect(Object.keys(doc.components.schemas as Json)).toContain('ErrorEnvelope')
    const explicit = documentOf(app(express), { errors: { format: 'envelope' } })
    expect(explicit.doc).toEqual(doc)
    expect(explicit.warnings).toEqual([])
  })

  it.each([
    ['problem details', problems],
    ['the envelope', {}],
  ])('is valid OpenAPI 3.1 for the official validator with %s', async (_name, config) => {
    const { doc } = documentOf(app(express, config))
    expect(await new Validator().validate(structuredClone(doc) as never)).toEqual({ valid: true })
  })

  it.each([
    ['problem details', problems, 'application/problem+json'],
    ['the envelope', {}, 'application/json'],
  ])(
    'gives answers that match the schemas the document names, with %s',
    async (_n, config, media) => {
      const target = app(express, config as ShapeguardConfig)
      const check = answerCheck(documentOf(target).doc, media)
      for (const c of cases) {
        const res = await c.send(target)
        const method = (res as unknown as { req: { method: string } }).req.method.toLowerCase()
        const route = c.path.startsWith('/files/') ? '/files/:name' : c.path
        expect(res.headers['content-type'], c.code).toBe(
          media === 'application/json' ? 'application/json; charset=utf-8' : PROBLEM,
        )
        expect(check(method, route, res.status, JSON.parse(res.text)), c.code).toBeUndefined()
      }
      // And the other format's answer does not pass for this one.
      const other =
        media === 'application/json'
          ? { type: 'about:blank', title: 'Not Found', status: 404, detail: 'x', code: 'NOT_FOUND' }
          : {
              success: false,
              message: 'x',
              error: { code: 'NOT_FOUND', message: 'x', details: null },
            }
      expect(check('get', '/nowhere', 404, other)).toMatch(/must have required property/)
      expect(check('post', '/users', 422, other)).toBeDefined()
    },
  )

  it('documents per-code types under problemTypeBase, read from the app', () => {
    const base = 'https://api.example.com/problems/'
    const { doc } = documentOf(
      app(express, { errors: { format: 'problem+json', problemTypeBase: base } }),
    )
    expect((doc.components.schemas as Json).ProblemDetails.properties.type.examples).toEqual([
      `${base}validation-error`,
    ])
  })

  it('warns when errors says otherwise than the app, and describes what errors says', () => {
    const { doc, warnings } = documentOf(app(express, problems), { errors: { format: 'envelope' } })
    expect(warnings).toEqual([
      "shapeguard: generateOpenAPI app: its shapeguard() answers errors as 'problem+json'; the document describes 'envelope', as errors.format says",
    ])
    expect(new Set(errorContents(doc).map((c) => c.media))).toEqual(new Set(['application/json']))
  })

  it('warns when two shapeguard() of the app disagree, and describes the first', () => {
    const both = express()
    both.use(shapeguard(problems))
    const inner = express.Router()
    inner.use(shapeguard())
    both.use('/v2', inner)
    const { doc, warnings } = documentOf(both as never, { routes: { 'GET /x': {} } })
    expect(warnings).toEqual([
      "shapeguard: generateOpenAPI app: its shapeguard() answers errors as 'problem+json' and 'envelope'; the document describes 'problem+json', the first mounted",
    ])
    expect(errorContents(doc)[0]?.media).toBe('application/problem+json')
  })
})

describe('generateOpenAPI errors', () => {
  const routes = { 'POST /users': { body: z.object({ name: z.string() }) } }

  it('documents problem details from the option alone (no app), passing the app’s errors as they are', () => {
    const doc = generateOpenAPI({
      title: 'T',
      version: '1',
      routes,
      errors: { format: 'problem+json', fallbackMessage: 'Oops', onError: () => {} },
    })
    expect(Object.keys((doc.paths['/users'] as Json).post.responses['422'])).toEqual(['$ref'])
    const failed = doc.components.responses?.ValidationFailed as Json
    expect(failed.content['application/problem+json'].schema.allOf).toEqual([
      { $ref: '#/components/schemas/ValidationProblem' },
      {
        type: 'object',
        properties: { code: { type: 'string', const: 'VALIDATION_ERROR' } },
        required: ['code'],
      },
    ])
  })

  it('refuses a misspelt or wrong errors option, naming it', () => {
    const make = (errors: unknown) => () =>
      generateOpenAPI({ title: 'T', version: '1', routes, errors: errors as never })
    expect(make('problem+json')).toThrow(
      'shapeguard: generateOpenAPI(): errors must be an object { format?, problemTypeBase? }',
    )
    expect(make({ fromat: 'problem+json' })).toThrow(
      'shapeguard: generateOpenAPI(): errors.fromat is not an option (format, problemTypeBase, fallbackMessage, onError)',
    )
    expect(make({ format: 'problem' })).toThrow(
      "shapeguard: generateOpenAPI(): errors.format must be 'envelope' or 'problem+json'",
    )
    expect(make({ format: 'problem+json', problemTypeBase: '/problems/' })).toThrow(
      "shapeguard: generateOpenAPI(): errors.problemTypeBase must be an absolute URI ending in '/', '#' or ':'",
    )
  })
})

describe('what follows the document', () => {
  const [, express] = hosts[1] as readonly [string, Express]

  it('exports the same requests in either format (they carry no error bodies)', () => {
    const envelope = documentOf(app(express)).doc
    const problem = documentOf(app(express, problems)).doc
    const options = { seed: 'problems' }
    expect(toPostman(problem, options)).toEqual(toPostman(envelope, options))
    expect(toInsomnia(problem, options)).toEqual(toInsomnia(envelope, options))
    expect(toBruno(problem, options)).toEqual(toBruno(envelope, options))
  })

  it('serves the problem document on the docs page', async () => {
    const { doc } = documentOf(app(express, problems))
    const site = express()
    site.use('/docs', createDocs({ spec: doc }))
    const served = await request(site).get('/docs/openapi.json')
    expect(served.body.components.schemas).toHaveProperty('ProblemDetails')
  })

  it('types the errors of an openapi-typescript client as problem details', async () => {
    const { doc } = documentOf(app(express, problems))
    const types = astToString(await openapiTS(doc as never))
    expect(types).toContain(
      '"application/problem+json": components["schemas"]["ValidationProblem"] & {',
    )
    expect(types).toMatch(/ProblemDetails: \{[\s\S]*?code: string;[\s\S]*?requestId\?: string;/)
    expect(types).toMatch(/errors: components\["schemas"\]\["ValidationIssue"\]\[\];/)
  })

  it('reads a problem as the error of an openapi-fetch call', async () => {
    const server = app(express, problems).listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    try {
      const { port } = server.address() as AddressInfo
      const client = createClient<any>({ baseUrl: `http://127.0.0.1:${port}` })
      const { error, response } = await client.POST('/users', { body: { name: '' } })
      expect([response.status, response.headers.get('content-type')]).toEqual([422, PROBLEM])
      expect(error).toMatchObject({
        status: 422,
        code: 'VALIDATION_ERROR',
        errors: [{ field: 'name', in: 'body' }],
      })
    } finally {
      server.close()
    }
  })
})
