import type { JsonSchema } from '../../engine/json-schema/json-schema-types.js'
import type { SchemaWriter } from './schemas.js'
import type { OpenAPIRoute } from './types.js'

/** What a streaming route answers: its media types' objects and the response's description. */
export interface StreamAnswer {
  readonly content: Record<string, unknown>
  readonly description: string
}

const names = (list: readonly string[]) => list.map((n) => `\`${n}\``).join(', ')

// OpenAPI 3.1 gives sequential media types no meaning, so `schema` follows the convention the
// tools that read streams from 3.1 documents share (Speakeasy's SDKs, Schemathesis): it describes
// ONE item, as a client sees it once parsed (an event's `data` as the JSON value it holds), which
// Swagger UI, Scalar and Redoc render as a plain object. `x-itemSchema` is OpenAPI 3.2's
// `itemSchema` to the letter: an SSE event is the WHATWG fields, `data` a string whose
// `contentSchema` is the event's schema. 3.2 applies `schema` to the whole stream read as an
// array, so a 3.2 document renames `x-itemSchema` to `itemSchema` and drops `schema`.

/**
 * A route's `events` as `text/event-stream`: one item per declared event (its name a `const`,
 * each data in output mode, a named schema a `$ref`), and the `error` event that ends a stream
 * failing after its first byte, whose data is the app's error body (`errorSchema`).
 */
function eventStream(
  schemas: SchemaWriter,
  where: string,
  events: Readonly<Record<string, unknown>>,
  errorSchema: string,
): { media: Record<string, unknown>; declared: string[] } {
  const declared = Object.keys(events)
  const data = declared.map(
    (name) => [name, schemas.write(events[name], 'output', `${where} events.${name}`)] as const,
  )
  // The envelope's error event holds the request ID beside its fields (an event has no headers).
  const ref = { $ref: `#/components/schemas/${errorSchema}` }
  const requestId = { type: 'object', properties: { requestId: { type: 'string' } } }
  data.push(['error', errorSchema === 'ProblemDetails' ? ref : { allOf: [ref, requestId] }])
  const decoded = data.map(([name, schema]) => ({
    title: name,
    type: 'object',
    properties: { event: { type: 'string', const: name }, data: schema, id: { type: 'string' } },
    required: ['event', 'data'],
  }))
  const item: JsonSchema = {
    type: 'object',
    properties: { event: { type: 'string' }, data: { type: 'string' }, id: { type: 'string' } },
    required: ['event', 'data'],
    oneOf: data.map(([name, schema]) => ({
      properties: {
        event: { const: name },
        data: { contentMediaType: 'application/json', contentSchema: structuredClone(schema) },
      },
    })),
  }
  return { media: { schema: { oneOf: decoded }, 'x-itemSchema': item }, declared }
}

/**
 * The stream content of a route with `events` (`text/event-stream`) or `stream`
 * (`application/x-ndjson`), or `undefined` for a route with neither. `errorSchema` names the
 * component of the app's error body, which a stream that fails after its first byte ends with.
 */
export function streamAnswer(
  schemas: SchemaWriter,
  where: string,
  route: OpenAPIRoute,
  errorSchema: string,
): StreamAnswer | undefined {
  const content: Record<string, unknown> = {}
  const said: string[] = []
  if (route.events !== undefined) {
    const { media, declared } = eventStream(schemas, where, route.events, errorSchema)
    content['text/event-stream'] = media
    said.push(
      `Server-Sent Events: ${names(declared)}; a stream that fails after it started ends with an \`error\` event holding the error body.`,
    )
  }
  if (route.stream !== undefined) {
    const item = schemas.write(route.stream, 'output', `${where} stream`)
    content['application/x-ndjson'] = { schema: item, 'x-itemSchema': structuredClone(item) }
    said.push(
      'NDJSON, one JSON value a line; a stream that fails after it started ends with a line holding the error body.',
    )
  }
  if (said.length === 0) return undefined
  return { content, description: said.join(' ') }
}

/**
 * The `Last-Event-ID` header a reconnecting SSE client sends (the runtime gives it to the handler
 * as `req.lastEventId`), unless `parameters` declare it already.
 */
export function lastEventIdParameter(
  route: OpenAPIRoute,
  parameters: readonly unknown[],
): Record<string, unknown> | undefined {
  if (route.events === undefined) return undefined
  const taken = parameters.some((p) => {
    const { name, in: location } = p as { name: string; in: string }
    return location === 'header' && name.toLowerCase() === 'last-event-id'
  })
  if (taken) return undefined
  return {
    name: 'Last-Event-ID',
    in: 'header',
    required: false,
    description: 'The `id` of the last event received, which a reconnecting client sends back.',
    schema: { type: 'string' },
  }
}
