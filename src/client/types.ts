import type { EventDataOfSchemas, OutputOf, StandardSchema } from './schemas.js'

/** Where a stream is read from: what `fetch` takes, or an answer already fetched. */
export type StreamInput = string | URL | Request | Response

/** A `fetch` of one's own (one that adds credentials, a test double, …). */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

/** The request options of `readEvents` and `readItems`: `fetch`'s, and these. */
export interface StreamRequestOptions extends RequestInit {
  /** Stops the iteration (it throws the signal's reason) and closes the connection. */
  readonly signal?: AbortSignal | null
  /** The `fetch` to call. @default globalThis.fetch */
  readonly fetch?: FetchLike
}

/** How `readEvents` reconnects when the connection drops. */
export interface ReconnectOptions {
  /** Reconnections in a row without an event before it gives up (`STREAM_DISCONNECTED`). @default 5 */
  readonly attempts?: number
  /** Milliseconds before the first reconnection when the server sent no `retry:`. @default 1000 */
  readonly delay?: number
  /** The longest wait; the delay doubles each failure in a row up to it, jittered. @default 30000 */
  readonly maxDelay?: number
}

/** `readEvents(input, options)`: `E` maps each event name to its data type. */
export interface ReadEventsOptions<E = Record<string, unknown>> extends StreamRequestOptions {
  /**
   * One Standard Schema per event name (a route's `events`): each event's data is validated by its
   * schema and replaced by the schema's output; an event the record does not name throws
   * `EVENT_UNDECLARED`. Without it, data is only JSON-parsed.
   */
  readonly events?: { readonly [K in keyof E]: StandardSchema<E[K]> }
  /**
   * Reconnection after the stream ends or the connection drops (not after the server's `error`
   * event, an abort, or a 204 answer), with `Last-Event-ID`; `false` ends the iteration with
   * the stream instead. Off when `input` is a `Response`. @default on for a GET (as
   * `EventSource`), off for another method, whose request a reconnection would repeat
   */
  readonly reconnect?: ReconnectOptions | false
  /** The ID to resume after, sent as `Last-Event-ID` on the first request too. */
  readonly lastEventId?: string
}

/** `readItems(input, options)`: `T` is the type of each item. */
export interface ReadItemsOptions<T = unknown> extends StreamRequestOptions {
  /**
   * The Standard Schema of each line (a route's `stream`): each item is validated by it and
   * replaced by its output. It also tells an item from the server's final error line.
   */
  readonly item?: StandardSchema<T>
}

/**
 * One event of a Server-Sent Events stream, a union discriminated by `event` when `E` maps names
 * to data types: `{ event: 'token', data: { text: string }, id } | { event: 'done', … }`.
 */
export type StreamEvent<E = Record<string, unknown>> = {
  [K in keyof E & string]: {
    /** The event's name (`event:`; `'message'` when the server sent none). */
    readonly event: K
    /** The event's data, JSON-parsed (and validated, with `events`). */
    readonly data: E[K]
    /** The last event ID the stream sent, `''` before any (as `EventSource`'s `lastEventId`). */
    readonly id: string
  }
}[keyof E & string]

type SchemaLike =
  | { readonly '~standard': object }
  | { readonly library: string; readonly parse: (...args: never[]) => unknown }

type SlotOf<T, K extends string> = string extends keyof T
  ? never
  : K extends keyof T
    ? Exclude<T[K], undefined>
    : never

/**
 * The event map of `T`: of a route (`typeof route`, its `events` schemas' outputs), or `T` itself
 * when it already maps event names to data types (as one writes from a generated document).
 */
export type EventsOf<T> = [SlotOf<T, 'events'>] extends [never]
  ? T
  : SlotOf<T, 'events'> extends Readonly<Record<string, SchemaLike>>
    ? EventDataOfSchemas<SlotOf<T, 'events'>>
    : T

/** The item type of `T`: of a route (`typeof route`, its `stream` schema's output), or `T` itself. */
export type ItemOf<T> = [SlotOf<T, 'stream'>] extends [never]
  ? T
  : SlotOf<T, 'stream'> extends SchemaLike
    ? OutputOf<SlotOf<T, 'stream'>>
    : T
