import { misuse } from './schemas.js'
import { StreamError, serverError } from './stream-error.js'
import type { StreamRequestOptions } from './types.js'

/** What the client reads: its `Accept` and the media types it takes as that stream. */
export interface StreamKind {
  readonly accept: string
  readonly types: readonly string[]
}

export const sseKind: StreamKind = { accept: 'text/event-stream', types: ['text/event-stream'] }
export const ndjsonKind: StreamKind = {
  accept: 'application/x-ndjson',
  types: ['application/x-ndjson', 'application/ndjson', 'application/jsonl'],
}

// An error body past this is not read further: a hostile server cannot fill the client's memory.
const maxErrorBody = 64 * 1024

/**
 * The caller's signal, followed by one of the client's own, which also ends the request when the
 * iteration stops early (a `break`). `dispose` aborts it and lets go of the caller's signal.
 */
export function linkSignal(signal: AbortSignal | null | undefined): {
  signal: AbortSignal
  dispose: () => void
} {
  const controller = new AbortController()
  const abort = () => controller.abort(signal?.reason)
  if (signal?.aborted) abort()
  else signal?.addEventListener('abort', abort, { once: true })
  return {
    signal: controller.signal,
    dispose() {
      signal?.removeEventListener('abort', abort)
      controller.abort()
    },
  }
}

/**
 * Requests the stream (the caller's headers, with `Accept` unless given and `Last-Event-ID` when
 * resuming) and checks the answer; undefined for a 204, which tells a client to stop.
 */
export async function openStream(
  input: string | URL | Request,
  options: Omit<StreamRequestOptions, 'signal'>,
  kind: StreamKind,
  lastEventId: string,
  signal: AbortSignal,
): Promise<Response | undefined> {
  const { fetch: fetchLike = fetch, ...init } = options
  const headers = new Headers(input instanceof Request ? input.headers : undefined)
  for (const [name, value] of new Headers(init.headers)) headers.set(name, value)
  if (!headers.has('accept')) headers.set('accept', kind.accept)
  if (lastEventId !== '') headers.set('last-event-id', lastEventId)
  return checkAnswer(await fetchLike(input, { ...init, headers, signal }), kind)
}

/** Throws at the call when the `Response` given has been read already. */
export function checkInput(input: unknown, where: string): void {
  if (input instanceof Response && input.bodyUsed)
    throw misuse(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: ${where} was given a Response whose body has been read already`,
    )
}

/**
 * The answer when it is the stream asked for; a non-2xx answer throws a `StreamError` with the
 * server's code (its error envelope or problem+json), a 2xx of another media type throws
 * `STREAM_CONTENT_TYPE`.
 */
export async function checkAnswer(
  response: Response,
  kind: StreamKind,
): Promise<Response | undefined> {
  const requestId = response.headers.get('x-request-id') ?? undefined
  if (response.status === 204) {
    await response.body?.cancel()
    return undefined
  }
  if (!response.ok) {
    const status = response.status
    const body = await errorBody(response)
    throw (
      serverError(body, { status, requestId }) ??
      new StreamError('HTTP_ERROR', `the server answered ${status}`, { status, body, requestId })
    )
  }
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (!kind.types.includes(type)) {
    await response.body?.cancel()
    throw new StreamError('STREAM_CONTENT_TYPE', `the answer is not ${kind.accept}`, {
      status: response.status,
      requestId,
    })
  }
  return response
}

async function errorBody(response: Response): Promise<unknown> {
  if (response.body === null) return undefined
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
      if (text.length > maxErrorBody) return undefined
    }
    return JSON.parse(text + decoder.decode())
  } catch {
    return undefined
  } finally {
    reader.cancel().catch(() => {})
  }
}

/**
 * The body's text in pieces, decoded by one streaming `TextDecoder`. Leaving the loop early, or
 * the signal aborting, cancels the body: the connection closes and the server sees the client go.
 */
export async function* textOf(
  body: ReadableStream<Uint8Array> | null,
  signal: AbortSignal,
): AsyncGenerator<string, void, undefined> {
  if (body === null) return
  const reader = body.getReader()
  const cancel = () => {
    reader.cancel(signal.reason).catch(() => {})
  }
  signal.addEventListener('abort', cancel, { once: true })
  const decoder = new TextDecoder()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      const text = decoder.decode(value, { stream: true })
      if (text !== '') yield text
    }
    const rest = decoder.decode()
    if (rest !== '') yield rest
  } finally {
    signal.removeEventListener('abort', cancel)
    reader.cancel().catch(() => {})
  }
}

/**
 * What an iteration throws for `error`, caught while reading: the caller's abort reason, a
 * `StreamError` as it is, a parser's bound as `STREAM_MALFORMED`; undefined for a dropped
 * connection, which the caller may retry.
 */
export function settled(error: unknown, signal: AbortSignal | null | undefined): unknown {
  if (signal?.aborted) return signal.reason
  if (error instanceof StreamError) return error
  if (error instanceof RangeError)
    return new StreamError('STREAM_MALFORMED', error.message, { cause: error })
  return undefined
}

/** The error of a connection that dropped and is not retried. */
export function disconnected(cause: unknown): StreamError {
  return new StreamError('STREAM_DISCONNECTED', 'the connection to the stream was lost', { cause })
}
