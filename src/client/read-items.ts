import { NdjsonParser } from '../shared/event-stream.js'
import {
  checkAnswer,
  checkInput,
  disconnected,
  linkSignal,
  ndjsonKind,
  openStream,
  settled,
  textOf,
} from './connect.js'
import { checkSchema, type StandardSchema, validate } from './schemas.js'
import { StreamError, serverError } from './stream-error.js'
import type { ItemOf, ReadItemsOptions, StreamInput } from './types.js'

type Items<T> = AsyncGenerator<T, void, undefined>

/**
 * Reads an NDJSON stream (`application/x-ndjson`), one JSON value a line:
 * `for await (const row of readItems(url))`. Fetches with `Accept: application/x-ndjson` (or reads
 * the `Response` given) and, with an `item` schema, validates each item. A non-2xx answer, and
 * the server's final error line, throw a `StreamError` with the server's code. It does not
 * reconnect: NDJSON has no event IDs to resume from. Leaving the loop, or aborting `signal`,
 * closes the connection.
 *
 * Typed by the `item` schema given, or by `T`: a route (`readItems<typeof route>(url)`) or the
 * item type itself.
 */
export function readItems<S extends StandardSchema>(
  input: StreamInput,
  options: ReadItemsOptions<ItemOf<{ stream: S }>> & { readonly item: S },
): Items<ItemOf<{ stream: S }>>
export function readItems<T = unknown>(
  input: StreamInput,
  options?: ReadItemsOptions<ItemOf<T>>,
): Items<ItemOf<T>>
export function readItems(input: StreamInput, options: ReadItemsOptions = {}): Items<unknown> {
  checkInput(input, 'readItems()')
  if (options.item !== undefined) checkSchema(options.item, 'readItems(): item')
  return read(input, options)
}

async function* read(input: StreamInput, options: ReadItemsOptions): Items<unknown> {
  const { item: schema, signal, ...request } = options
  const link = linkSignal(signal)
  try {
    const response =
      input instanceof Response
        ? await checkAnswer(input, ndjsonKind)
        : await openStream(input, request, ndjsonKind, '', link.signal)
    if (response === undefined) return
    const parser = new NdjsonParser()
    const requestId = response.headers.get('x-request-id') ?? undefined
    // A line shaped as the app's error body is the server's final error only when it is the
    // last: held until the next line shows it was an item, or the end shows it was the error.
    let held: { value: unknown } | undefined
    async function* lines(texts: readonly string[]) {
      for (const line of texts) {
        const value = parse(line)
        if (held !== undefined) yield await itemOf(held.value, schema)
        held = serverError(value, {}) === undefined ? undefined : { value }
        if (held === undefined) yield await itemOf(value, schema)
      }
    }
    for await (const text of textOf(response.body, link.signal)) yield* lines(parser.push(text))
    yield* lines(parser.end())
    if (signal?.aborted) throw signal.reason
    if (held !== undefined) throw serverError(held.value, { requestId })
  } catch (error) {
    throw settled(error, signal) ?? disconnected(error)
  } finally {
    link.dispose()
  }
}

function parse(line: string): unknown {
  try {
    return JSON.parse(line)
  } catch {
    throw new StreamError('STREAM_MALFORMED', 'a stream line is not JSON')
  }
}

/** A line's item: its value, validated by the `item` schema when one is given. */
async function itemOf(value: unknown, schema: StandardSchema | undefined): Promise<unknown> {
  return schema === undefined ? value : await validate(schema, value, { code: 'ITEM_INVALID' })
}
