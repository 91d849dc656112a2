import { type ServerSentEvent, SseParser } from '../shared/event-stream.js'
import { backoff, sleep } from './backoff.js'
import {
  checkAnswer,
  checkInput,
  disconnected,
  linkSignal,
  openStream,
  settled,
  sseKind,
  textOf,
} from './connect.js'
import {
  checkSchema,
  type EventDataOfSchemas,
  type EventSchemas,
  type StandardSchema,
  validate,
} from './schemas.js'
import { quoteName, StreamError, serverError } from './stream-error.js'
import type {
  EventsOf,
  ReadEventsOptions,
  ReconnectOptions,
  StreamEvent,
  StreamInput,
} from './types.js'

type Events<E> = AsyncGenerator<StreamEvent<E>, void, undefined>

/**
 * Reads a Server-Sent Events stream: `for await (const { event, data, id } of readEvents(url))`.
 * Fetches with `Accept: text/event-stream` (or reads the `Response` given), JSON-parses each
 * event's data and, with `events` schemas, validates it. A non-2xx answer, and the server's final
 * `error` event, throw a `StreamError` with the server's code. When the stream ends or the
 * connection drops, it reconnects with `Last-Event-ID` (see `reconnect`); a 204 answer ends it.
 * Leaving the loop, or aborting `signal`, closes the connection.
 *
 * Typed by the `events` schemas given, or by `T`: a route (`readEvents<typeof route>(url)`) or a
 * map of event name to data type (`readEvents<{ token: Token; done: Usage }>(url)`).
 * @example
 * for await (const e of readEvents('/chat', { events: chat.events })) {
 *   if (e.event === 'token') write(e.data.text)
 *   else break // 'done'
 * }
 */
export function readEvents<const S extends EventSchemas>(
  input: StreamInput,
  options: ReadEventsOptions<EventDataOfSchemas<S>> & { readonly events: S },
): Events<EventDataOfSchemas<S>>
export function readEvents<T = Record<string, unknown>>(
  input: StreamInput,
  options?: ReadEventsOptions<EventsOf<T>>,
): Events<EventsOf<T>>
export function readEvents(
  input: StreamInput,
  options: ReadEventsOptions = {},
): Events<Record<string, unknown>> {
  checkInput(input, 'readEvents()')
  const schemas = options.events
  if (schemas !== undefined)
    for (const [name, schema] of Object.entries(schemas))
      checkSchema(schema, `readEvents(): events.${name}`)
  return read(input, options)
}

async function* read(
  input: StreamInput,
  options: ReadEventsOptions,
): Events<Record<string, unknown>> {
  const { events: schemas, reconnect, lastEventId: resumeAfter, signal, ...request } = options
  const retries = reconnection(input, request.method, reconnect)
  const attempts = retries?.attempts ?? 5
  const link = linkSignal(signal)
  let lastEventId = resumeAfter ?? ''
  let retry: number | undefined
  let failures = 0
  try {
    for (;;) {
      let dropped: unknown
      try {
        const response =
          input instanceof Response
            ? await checkAnswer(input, sseKind)
            : await openStream(input, request, sseKind, lastEventId, link.signal)
        if (response === undefined) return
        const parser = new SseParser(lastEventId)
        const requestId = response.headers.get('x-request-id') ?? undefined
        for await (const text of textOf(response.body, link.signal)) {
          for (const e of parser.push(text)) {
            failures = 0
            lastEventId = e.id
            yield await eventOf(e, schemas, requestId)
          }
          // An `id:` in a block without data moves the resume point too.
          lastEventId = parser.lastEventId
          retry = parser.retry ?? retry
        }
      } catch (error) {
        const thrown = settled(error, signal)
        if (thrown !== undefined) throw thrown
        dropped = error
      }
      if (signal?.aborted) throw signal.reason
      if (retries === undefined) {
        if (dropped === undefined) return
        throw disconnected(dropped)
      }
      if (++failures > attempts) throw disconnected(dropped)
      const base = retry ?? retries.delay ?? 1000
      await sleep(backoff(base, failures, retries.maxDelay ?? 30_000), link.signal)
    }
  } finally {
    link.dispose()
  }
}

// As EventSource, which only ever GETs: repeating another method repeats what it does (a POST
// starting a new generation), so it reconnects only when the caller asks.
function reconnection(
  input: StreamInput,
  method: string | undefined,
  reconnect: ReadEventsOptions['reconnect'],
): ReconnectOptions | undefined {
  if (reconnect === false || input instanceof Response) return undefined
  if (reconnect !== undefined) return reconnect
  const verb = (method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase()
  return verb === 'GET' ? {} : undefined
}

async function eventOf(
  e: ServerSentEvent,
  schemas: Readonly<Record<string, StandardSchema>> | undefined,
  requestId: string | undefined,
): Promise<StreamEvent> {
  const { event, id } = e
  let data: unknown
  try {
    data = JSON.parse(e.data)
  } catch {
    if (event === 'error') data = undefined
    else
      throw new StreamError(
        'STREAM_MALFORMED',
        `the data of event ${quoteName(event)} is not JSON`,
        { event },
      )
  }
  if (event === 'error')
    throw (
      serverError(data, { requestId }) ??
      new StreamError('STREAM_ERROR', 'the server ended the stream with an error', {
        body: data,
        requestId,
      })
    )
  if (schemas === undefined) return { event, data, id }
  if (!Object.hasOwn(schemas, event))
    throw new StreamError(
      'EVENT_UNDECLARED',
      `the stream sent event ${quoteName(event)}, which events does not declare`,
      { event },
    )
  return {
    event,
    data: await validate(schemas[event]!, data, { code: 'EVENT_INVALID', event }),
    id,
  }
}
