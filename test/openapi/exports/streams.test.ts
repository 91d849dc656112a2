import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { generateOpenAPI, toBruno, toInsomnia, toPostman } from '../../../src/openapi/index.js'

type Any = Record<string, any>

// Each exporter's requests as `METHOD /path` → the headers it sends (enabled ones only).
const sent = {
  toPostman: (doc: unknown) =>
    Object.fromEntries(
      (toPostman(doc, { seed: 's' }) as Any).item.map((i: Any) => [
        `${i.request.method} /${i.request.url.path.join('/')}`,
        i.request.header.filter((h: Any) => h.disabled !== true).map((h: Any) => [h.key, h.value]),
      ]),
    ),
  toInsomnia: (doc: unknown) =>
    Object.fromEntries(
      (toInsomnia(doc, { seed: 's' }) as Any).resources
        .filter((r: Any) => r._type === 'request')
        .map((r: Any) => [
          `${r.method} ${r.url.replace('{{ _.baseUrl }}', '')}`,
          r.headers.filter((h: Any) => h.disabled !== true).map((h: Any) => [h.name, h.value]),
        ]),
    ),
  toBruno: (doc: unknown) =>
    Object.fromEntries(
      (toBruno(doc, { seed: 's' }) as Any).items.map((i: Any) => [
        `${i.request.method} ${i.request.url.replace('{{baseUrl}}', '')}`,
        i.request.headers.filter((h: Any) => h.enabled).map((h: Any) => [h.name, h.value]),
      ]),
    ),
}

const generated = generateOpenAPI({
  title: 'Streams',
  version: '1.0.0',
  routes: {
    'GET /chat': { events: { token: z.object({ text: z.string() }) } },
    'GET /rows': { stream: z.object({ id: z.number() }) },
    'GET /both': { stream: z.object({ id: z.number() }), response: z.object({ n: z.number() }) },
    'GET /json': { response: z.object({ n: z.number() }) },
  },
})

// A document written by hand: a parameterised media type, a response under components.
const handWritten = {
  openapi: '3.1.0',
  info: { title: 'Hand', version: '1' },
  paths: {
    '/feed': {
      get: {
        responses: {
          '200': {
            description: 'Events',
            content: { 'text/event-stream; charset=utf-8': { schema: {} } },
          },
        },
      },
    },
    '/log': { get: { responses: { '200': { $ref: '#/components/responses/Log' } } } },
    '/error-stream': {
      get: {
        responses: {
          '500': { description: 'x', content: { 'application/x-ndjson': { schema: {} } } },
        },
      },
    },
  },
  components: {
    responses: {
      Log: {
        description: 'Lines',
        content: { 'application/x-ndjson': { schema: {} }, 'application/json': { schema: {} } },
      },
    },
  },
}

describe.each(Object.entries(sent))('%s of a streaming operation', (_, headersOf) => {
  it('sends Accept with the stream it answers, and nothing more on a JSON one', () => {
    expect(headersOf(generated)).toEqual({
      'GET /chat': [['Accept', 'text/event-stream']],
      'GET /rows': [['Accept', 'application/x-ndjson']],
      'GET /both': [['Accept', 'application/x-ndjson']],
      'GET /json': [],
    })
  })

  it('reads parameterised media types and referenced responses; an error stream is no reason', () => {
    expect(headersOf(handWritten)).toEqual({
      'GET /feed': [['Accept', 'text/event-stream']],
      'GET /log': [['Accept', 'application/x-ndjson']],
      'GET /error-stream': [],
    })
  })
})
