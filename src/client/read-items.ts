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
    for await (const text of textOf(response.body, link.signal))
      for (const line of parser.push(text)) yield await itemOf(line, schema)
    for (const line of parser.end()) yield await itemOf(line, schema)
    if (signal?.aborted) throw signal.reason
  } catch (error) {
    throw settled(error, signal) ?? disconnected(error)
  } finally {
    link.dispose()
  }
}

/**
 * A line's item. A line shaped as the app's error body (its envelope's `error: { code, message }`
 * or problem+json) is the server's final error, unless the `item` schema takes it.
 */
async function itemOf(line: string, schema: StandardSchema | undefined): Promise<unknown> {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    throw new StreamError('STREAM_MALFORMED', 'a stream line is not JSON')
  }
  if (schema === undefined) {
    const error = serverError(value, {})
    if (error !== undefined) throw error
    return value
  }
  try {
    return await validate(schema, value, { code: 'ITEM_INVALID' })
  } catch (invalid) {
    throw serverError(value, {}) ?? invalid
  }
}
