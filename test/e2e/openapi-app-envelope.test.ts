import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import {
  configureLogger,
  errorHandler,
  handle,
  notFoundHandler,
  type ShapeguardConfig,
  shapeguard,
} from '../../src/index.js'
import { generateOpenAPI, type OpenAPIDocument } from '../../src/openapi/index.js'
import { fuzzRoutes } from '../../src/testing/index.js'
import { type Express, hosts } from '../support/e2e.js'

// A document made from an app (generateOpenAPI({ app }), the command, fuzzRoutes) describes the
// envelope that app's shapeguard() sends: its response.shape and statusCodes, not the defaults.

beforeAll(() => {
  configureLogger({ silent: true })
})

const renamed: ShapeguardConfig = {
  response: {
    shape: { ok: '{success}', result: '{data}', note: '{message}' },
    statusCodes: { POST: 200 },
  },
}

const User = z.object({ id: z.number().int(), name: z.string().min(1).max(40) })

function appOf(express: Express, config: ShapeguardConfig, options: { leak?: boolean } = {}) {
  const app = express()
  app.use(shapeguard(config))
  app.use(express.json())
  app.post(
    '/users',
    ...handle({ body: User.omit({ id: true }), response: User }, (req, res) => {
      // A stored record holds more than the response declares: the schema strips it.
      const stored = { id: 1, ...req.body, passwordHash: 'x' }
      res.ok({ data: stored })
    }),
  )
  app.get(
    '/users/:id',
    ...handle({ params: z.object({ id: z.coerce.number().int() }), response: User }, (req, res) => {
      const data = { id: req.params.id, name: 'Ada' }
      // The leak: an envelope written by hand, past the response schema's stripping.
      if (options.leak) res.json({ ok: true, note: '', result: { ...data, secret: 1 } })
      else res.ok({ data })
    }),
  )
  app.use(notFoundHandler())
  app.use(errorHandler())
  return app
}

function documentOf(app: unknown, extra: object = {}) {
  const warnings: string[] = []
  const doc = generateOpenAPI({
    title: 'Envelope',
    version: '1.0.0',
    app,
    onWarning: (m) => warnings.push(m),
    ...extra,
  })
  return { doc, warnings }
}

type Json = Record<string, any>

function responseSchema(doc: OpenAPIDocument, method: string, path: string, status: string) {
  const op = (doc.paths as Json)[path][method]
  const response = op.responses[status] as Json
  const resolved = response.$ref
    ? (doc.components as Json).responses[response.$ref.split('/').pop()]
    : response
  return resolved.content['application/json'].schema as Json
}

/** Checks a body against the document's schema for it, with the document's components. */
function validator(doc: OpenAPIDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema({ $id: 'doc', components: doc.components } as never)
  return (schema: Json, body: unknown) => {
    const rewritten = JSON.parse(
      JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'),
    )
    const check = ajv.compile(rewritten)
    return check(body) ? undefined : ajv.errorsText(check.errors)
  }
}

describe.each(hosts)('%s', (_, express) => {
  it('documents the app’s response.shape and statusCodes, and its answers match', async () => {
    const app = appOf(express, renamed)
    const { doc, warnings } = documentOf(app)
    expect(warnings).toEqual([])
    const post = (doc.paths as Json)['/users'].post
    expect(Object.keys(post.responses)).toContain('200')
    expect(Object.keys(post.responses)).not.toContain('201')
    const success = responseSchema(doc, 'post', '/users', '200')
    expect(success.required).toEqual(['ok', 'note', 'result'])
    expect(success.properties.ok).toEqual({ type: 'boolean', const: true })

    const check = validator(doc)
    const created = await request(app).post('/users').send({ name: 'Ada' })
    expect(created.status).toBe(200)
    expect(created.body).toEqual({ ok: true, note: '', result: { id: 1, name: 'Ada' } })
    expect(check(success, created.body)).toBeUndefined()

    const rejected = await request(app).post('/users').send({ name: '' })
    expect(rejected.status).toBe(422)
    expect(rejected.body.ok).toBe(false)
    expect(check(responseSchema(doc, 'post', '/users', '422'), rejected.body)).toBeUndefined()
  })

  it('describes the default envelope where the app’s shapeguard() has no response options', () => {
    const { doc } = documentOf(appOf(express, {}))
    const success = responseSchema(doc, 'post', '/users', '201')
    expect(success.required).toEqual(['success', 'message', 'data'])
  })

  it('follows response as given, and warns that the app says otherwise', () => {
    const { doc, warnings } = documentOf(appOf(express, renamed), {
      response: { statusCodes: { POST: 201 } },
    })
    expect(warnings).toEqual([
      'shapeguard: generateOpenAPI app: its shapeguard() has another response.statusCodes than the document describes, as response.statusCodes says',
    ])
    // The shape still comes from the app; the status from the option.
    expect(responseSchema(doc, 'post', '/users', '201').required).toEqual(['ok', 'note', 'result'])
  })

  it('does not warn when response says what the app does in other words', () => {
    const same = documentOf(appOf(express, renamed), {
      response: {
        shape: { note: '{message}', ok: '{success}', result: '{data}' },
        statusCodes: { POST: 200, GET: 200 },
      },
    })
    expect(same.warnings).toEqual([])
    const defaults = documentOf(appOf(express, {}), { response: { statusCodes: { POST: 201 } } })
    expect(defaults.warnings).toEqual([])
  })

  it('fuzzRoutes checks the renamed envelope: a correct app passes, a leak under result fails', async () => {
    // Its routes answer fixed data: the stateful phase's checks are not what this test is about.
    const phases = ['examples', 'boundaries', 'random'] as const
    const report = await fuzzRoutes(appOf(express, renamed), { runs: 15, seed: 5, phases })
    expect(report.failures).toEqual([])
    expect(report.requests).toBeGreaterThan(0)
    const error = (await fuzzRoutes(appOf(express, renamed, { leak: true }), {
      runs: 15,
      seed: 5,
    }).catch((e: unknown) => e)) as Error
    expect(error).toBeInstanceOf(Error)
    expect(error.message).toContain(
      'GET /users/:id: answered 200 with a malformed envelope: /result must NOT have additional properties',
    )
  })

  it('names the path a sub-application is mounted at when it cannot be documented', () => {
    const app = express()
    app.use('/admin', express())
    const { warnings } = documentOf(app, { routes: { 'GET /x': {} } })
    expect(warnings).toEqual([
      'shapeguard: generateOpenAPI app: a sub-application mounted at /admin (mount a router instead) is not documented',
    ])
  })
})
