import { isObject } from '../shared/is-object.js'

/**
 * What `StreamError.code` holds when the client, not the server, ends the iteration. Any other code
 * is the server's own (its error envelope's `error.code`, or problem+json's `code`).
 */
export type StreamErrorCode =
  /** A non-2xx answer without a code in its body; `status` says which. */
  | 'HTTP_ERROR'
  /** The server's final `error` event or error line, without a code in it. */
  | 'STREAM_ERROR'
  /** A 2xx answer that is not the stream asked for (its Content-Type). */
  | 'STREAM_CONTENT_TYPE'
  /** The connection was lost and not (or no longer) reconnected; `cause` holds why. */
  | 'STREAM_DISCONNECTED'
  /** Data that is not JSON, or a line past the parser's bound. */
  | 'STREAM_MALFORMED'
  /** An event whose name the `events` schemas do not declare. */
  | 'EVENT_UNDECLARED'
  /** An event's data that fails its schema. */
  | 'EVENT_INVALID'
  /** An NDJSON item that fails the `item` schema. */
  | 'ITEM_INVALID'

/** Where a `StreamError` comes from, besides its code. */
export interface StreamErrorFields {
  readonly status?: number | undefined
  readonly body?: unknown
  readonly requestId?: string | undefined
  readonly event?: string | undefined
  readonly path?: string | undefined
  readonly cause?: unknown
}

/**
 * Why `readEvents` or `readItems` stopped: the server's error (a non-2xx answer, or the final
 * `error` event or error line of a stream that had started) with the server's code, or a failure
 * the client found (`StreamErrorCode`). Its message never holds a value from the stream.
 */
export class StreamError extends Error {
  /** The server's error code, or one of `StreamErrorCode`. */
  readonly code: string
  /** The HTTP status of a non-2xx answer (or of problem+json's `status`); undefined otherwise. */
  readonly status: number | undefined
  /** The server's error body, parsed (the error envelope or problem+json); undefined otherwise. */
  readonly body: unknown
  /** The server's request ID, when its error body or `X-Request-Id` header gives one. */
  readonly requestId: string | undefined
  /** The event's name (SSE), for `EVENT_UNDECLARED` and `EVENT_INVALID`. */
  readonly event: string | undefined
  /** Where in the data the schema failed (`text`, `items.0.id`), never the value. */
  readonly path: string | undefined

  constructor(code: string, message: string, fields: StreamErrorFields = {}) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause })
    this.name = 'StreamError'
    this.code = code
    this.status = fields.status
    this.body = fields.body
    this.requestId = fields.requestId
    this.event = fields.event
    this.path = fields.path
  }
}

/**
 * The server's code, message and request ID in an error body: shapeguard's envelope
 * (`error: { code, message }`, whatever the renamed fields) or problem+json (`code`, `detail`,
 * `status`, `requestId`). Undefined when the body is neither.
 */
export function readErrorBody(
  body: unknown,
): { code: string; message: string; status?: number; requestId?: string } | undefined {
  if (!isObject(body)) return undefined
  const requestId = typeof body.requestId === 'string' ? body.requestId : undefined
  const error = body.error
  if (isObject(error) && typeof error.code === 'string' && typeof error.message === 'string')
    return { code: error.code, message: error.message, ...(requestId ? { requestId } : {}) }
  const isProblem =
    typeof body.type === 'string' &&
    typeof body.title === 'string' &&
    typeof body.status === 'number'
  if (!isProblem) return undefined
  return {
    code: typeof body.code === 'string' ? body.code : 'HTTP_ERROR',
    message: typeof body.detail === 'string' ? body.detail : (body.title as string),
    status: body.status as number,
    ...(requestId ? { requestId } : {}),
  }
}

/** The `StreamError` of a server's error body, or undefined when the body is not one. */
export function serverError(
  body: unknown,
  fields: { status?: number | undefined; requestId?: string | undefined },
): StreamError | undefined {
  const read = readErrorBody(body)
  if (read === undefined) return undefined
  return new StreamError(read.code, read.message, {
    status: fields.status ?? read.status,
    body,
    requestId: read.requestId ?? fields.requestId,
  })
}

/** An event name fit for an error message: quoted, and cut short (it comes from the server). */
export function quoteName(name: string): string {
  return JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name)
}
