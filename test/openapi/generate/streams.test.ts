import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Validator } from '@seriousme/openapi-schema-validator'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { number, object, string } from 'yup'
import * as z from 'zod'
import { valibotAdapter } from '../../../src/adapters/valibot/index.js'
import { yupAdapter } from '../../../src/adapters/yup/index.js'
import { generateOpenAPI, type OpenAPIConfig } from '../../../src/openapi/index.js'
import { handle } from '../../../src/runtime/pipeline/handle.js'
import { hosts } from '../../support/e2e.js'
import { misuse } from '../../support/misuse.js'

// The envelope's error event: its fields and the request ID (an event has no headers).
const envelopeWithId = {
  allOf: [
    { $ref: '#/components/schemas/ErrorEnvelope' },
    { type: 'object', properties: { requestId: { type: 'string' } } },
  ],
}

const run = promisify(execFile)
const root = join(import.meta.dirname, '../../..')

function gen(config: Omit<OpenAPIConfig, 'title' | 'version'>) {
  const warnings: string[] = []
  const doc = generateOpenAPI({
    title: 'Streams',
    version: '1.0.0',
    onWarning: (m) => warnings.push(m),
    ...config,
  })
  return { doc, warnings, op: (path: string, method: string) => doc.paths[path]?.[method] as any }
}

const Usage = z.object({ tokens: z.number().int().min(0) })
const chat = { events: { token: z.object({ text: z.string() }), done: Usage } }
const exportRows = { stream: z.object({ id: z.number(), name: z.string().optional() }) }

const event = (name: string, data: unknown) => ({
  title: name,
  type: 'object',
  properties: { event: { type: 'string', const: name }, data, id: { type: 'string' } },
  required: ['event', 'data'],
})
const wire = (name: string, data: unknown) => ({
  properties: {
    event: { const: name },
    data: { contentMediaType: 'application/json', contentSchema: data },
  },
})
const token = {
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
  additionalProperties: false,
}
const usageRef = { $ref: '#/components/schemas/Usage' }

describe('generateOpenAPI: a route with events (Server-Sent Events)', () => {
  const { doc, warnings, op } = gen({ components: { Usage }, routes: { 'GET /chat': chat } })
  const ok = op('/chat', 'get').responses['200']

  it('documents text/event-stream under 200, one item per event and the closing error event', () => {
    expect(warnings).toEqual([])
    expect(Object.keys(ok.content)).toEqual(['text/event-stream'])
    expect(ok.description).toBe(
      'Server-Sent Events: `token`, `done`; a stream that fails after it started ends with an `error` event holding the error body.',
    )
    expect(ok.content['text/event-stream'].schema).toEqual({
      oneOf: [event('token', token), event('done', usageRef), event('error', envelopeWithId)],
    })
  })

  it("gives OpenAPI 3.2's itemSchema as x-itemSchema: data a string holding the event's JSON", () => {
    expect(ok.content['text/event-stream']['x-itemSchema']).toEqual({
      type: 'object',
      properties: { event: { type: 'string' }, data: { type: 'string' }, id: { type: 'string' } },
      required: ['event', 'data'],
      oneOf: [wire('token', token), wire('done', usageRef), wire('error', envelopeWithId)],
    })
  })

  it('writes a named event schema once, in output mode, and documents Last-Event-ID', () => {
    expect(doc.components.schemas?.Usage).toEqual({
      type: 'object',
      properties: {
        tokens: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
      },
      required: ['tokens'],
      additionalProperties: false,
    })
    expect(op('/chat', 'get').parameters).toEqual([
      {
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        description: 'The `id` of the last event received, which a reconnecting client sends back.',
        schema: { type: 'string' },
      },
    ])
  })

  it('has items that accept what the runtime writes and refuse an undeclared event', () => {
    const ajv = new Ajv2020({ strict: false })
    addFormats(ajv)
    ajv.addSchema({ $id: 'doc', components: doc.components, paths: doc.paths })
    const at = 'doc#/paths/~1chat/get/responses/200/content/text~1event-stream'
    const decoded = ajv.compile({ $ref: `${at}/schema` })
    const item = ajv.compile({ $ref: `${at}/x-itemSchema` })
    expect(decoded({ event: 'token', data: { text: 'Hi' }, id: '1' })).toBe(true)
    expect(decoded({ event: 'done', data: { tokens: 3 } })).toBe(true)
    expect(decoded({ event: 'token', data: { text: 'Hi', secret: 1 } })).toBe(false)
    expect(decoded({ event: 'ping', data: {} })).toBe(false)
    expect(item({ event: 'token', data: '{"text":"Hi"}', id: '1' })).toBe(true)
    expect(item({ event: 'ping', data: '{}' })).toBe(false)
  })
})

describe('generateOpenAPI: where a stream is documented', () => {
  it('documents application/x-ndjson with the item schema, as schema and x-itemSchema', () => {
    const { op, warnings } = gen({ routes: { 'GET /export': exportRows } })
    const ok = op('/export', 'get').responses['200']
    const item = {
      type: 'object',
      properties: { id: { type: 'number' }, name: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    }
    expect(warnings).toEqual([])
    expect(ok).toEqual({
      description:
        'NDJSON, one JSON value a line; a stream that fails after it started ends with a line holding the error body.',
      content: { 'application/x-ndjson': { schema: item, 'x-itemSchema': item } },
    })
    expect(op('/export', 'get').parameters).toBeUndefined()
  })

  it('streams under 200 on a POST, beside the JSON answer under its own status', () => {
    const { op } = gen({
      routes: {
        'POST /chat': chat,
        'POST /both': { ...exportRows, response: z.object({ n: z.number() }) },
        'GET /both': { ...chat, response: z.object({ n: z.number() }), cache: { maxAge: 5 } },
      },
    })
    expect(Object.keys(op('/chat', 'post').responses)).toEqual([
      '200',
      '400',
      '413',
      '415',
      '422',
      '500',
    ])
    const post = op('/both', 'post').responses
    expect(Object.keys(post['201'].content)).toEqual(['application/json'])
    expect(Object.keys(post['200'].content)).toEqual(['application/x-ndjson'])
    const get = op('/both', 'get').responses['200']
    expect(Object.keys(get.content)).toEqual(['application/json', 'text/event-stream'])
    expect(get.description).toMatch(/^Success\. Server-Sent Events: `token`, `done`;/)
    expect(get.headers['Cache-Control']).toBeDefined()
  })

  it('ends an event stream with problem details in an app that answers problem+json', () => {
    const { op } = gen({ errors: { format: 'problem+json' }, routes: { 'GET /chat': chat } })
    const schema = op('/chat', 'get').responses['200'].content['text/event-stream'].schema
    expect(schema.oneOf.at(-1)).toEqual(
      event('error', { $ref: '#/components/schemas/ProblemDetails' }),
    )
  })

  it('keeps a Last-Event-ID the headers schema declares, once', () => {
    const { op } = gen({
      routes: {
        'GET /chat': { ...chat, headers: z.object({ 'last-event-id': z.string().max(64) }) },
      },
    })
    expect(op('/chat', 'get').parameters).toEqual([
      {
        name: 'last-event-id',
        in: 'header',
        required: true,
        schema: { type: 'string', maxLength: 64 },
      },
    ])
  })

  it('refuses events that are no object of names, or a name that would forge an SSE field', () => {
    const bad = (events: unknown) => () => gen({ routes: { 'GET /chat': { events } as never } })
    const message = (problem: string) =>
      misuse(
        'SG_ERR_INVALID_OPTION',
        `shapeguard: generateOpenAPI(): routes["GET /chat"].${problem}`,
      )
    const notObject =
      'events must be an object of one schema per event name, e.g. { token: schema }'
    expect(bad({})).toThrow(message(notObject))
    expect(bad('token')).toThrow(message(notObject))
    for (const name of ['', 'a\nid: 1', 'a\r', 'a\0', 'a b', '1a'])
      expect(bad({ [name]: Usage })).toThrow(
        message(
          'events: an event name must be letters, digits, _ . or -, starting with a letter or _',
        ),
      )
    expect(bad({ error: Usage })).toThrow(
      message('events: "error" is the name of the stream\'s final error event'),
    )
  })
})

const libraries = {
  'GET /zod/events': { summary: 'Chat', ...chat },
  'GET /zod/rows': { summary: 'Export', ...exportRows },
  'GET /valibot/events': {
    summary: 'Follow a job',
    events: {
      progress: valibotAdapter(v.object({ done: v.pipe(v.number(), v.minValue(0)) })),
      finished: valibotAdapter(v.object({ url: v.pipe(v.string(), v.url()) })),
    },
  },
  'POST /valibot/rows': {
    summary: 'Search',
    body: valibotAdapter(v.object({ q: v.string() })),
    stream: valibotAdapter(v.object({ id: v.number(), tags: v.array(v.string()) })),
  },
  'GET /yup/events': {
    summary: 'Ticks',
    events: { tick: yupAdapter(object({ at: number().integer().required() })) },
    response: yupAdapter(object({ open: number().required() })),
  },
  'GET /yup/rows': { summary: 'Names', stream: yupAdapter(object({ name: string().required() })) },
}

describe('a document with zod, valibot and yup streams', () => {
  const { doc, warnings } = gen({
    components: { Usage },
    servers: [{ url: 'http://127.0.0.1:3000' }],
    license: { name: 'MIT', identifier: 'MIT' },
    routes: libraries,
  })

  it('is valid OpenAPI 3.1 by @seriousme/openapi-schema-validator, without warnings', async () => {
    expect(warnings).toEqual([])
    const result = await new Validator().validate(structuredClone(doc) as never)
    expect(result).toEqual({ valid: true })
  })

  it('has schemas ajv compiles as JSON Schema 2020-12, every one', () => {
    const ajv = new Ajv2020({ strict: false })
    addFormats(ajv)
    ajv.addSchema({ $id: 'doc', components: doc.components, paths: doc.paths })
    const pointer = (...keys: string[]) =>
      keys.map((k) => k.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')
    let compiled = 0
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item) as [string, any][]) {
        for (const type of Object.keys(operation.responses['200'].content)) {
          if (type === 'application/json') continue
          const at = pointer(path, method, 'responses', '200', 'content', type)
          ajv.compile({ $ref: `doc#/paths/${at}/schema` })
          ajv.compile({ $ref: `doc#/paths/${at}/x-itemSchema` })
          compiled += 2
        }
      }
    }
    expect(compiled).toBe(12)
  })

  it('finds zero errors by redocly lint (recommended rules, no network)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-streams-'))
    try {
      const file = join(dir, 'openapi.json')
      writeFileSync(file, JSON.stringify(doc))
      const env = {
        ...process.env,
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        HTTP_PROXY: 'http://127.0.0.1:9',
        HTTPS_PROXY: 'http://127.0.0.1:9',
        NO_COLOR: '1',
      }
      const out = await run(
        join(root, 'node_modules/.bin/redocly'),
        ['lint', file, '--format=json'],
        { env, cwd: dir },
      ).catch((err: { stdout: string }) => err)
      const report = JSON.parse(out.stdout.slice(out.stdout.indexOf('{'))) as {
        problems: unknown[]
      }
      expect(report.problems).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})

describe.each(hosts)('generateOpenAPI({ app }) with streaming routes on %s', (_, express) => {
  it('documents the events and the stream of routes registered with handle()', () => {
    const app = express()
    const ok = (_req: unknown, res: { end(): void }) => res.end()
    app.get('/chat', ...handle(chat, ok))
    app.get('/rows', ...handle(exportRows, ok))
    const { op, warnings } = gen({ app })
    expect(warnings).toEqual([])
    const events = op('/chat', 'get').responses['200'].content['text/event-stream']
    expect(events.schema.oneOf.map((e: any) => e.properties.event.const)).toEqual([
      'token',
      'done',
      'error',
    ])
    expect(Object.keys(op('/rows', 'get').responses['200'].content)).toEqual([
      'application/x-ndjson',
    ])
  })
})
