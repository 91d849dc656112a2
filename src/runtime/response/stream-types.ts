import type { Schema } from '../../engine/adapter.js'

/** What a route's `events` slot holds: one schema per event name, or nothing. */
export type EventsSlot = Readonly<Record<string, Schema>> | undefined

/** `res.sse(options)`: how the stream is kept open. */
export interface SseOptions {
  /**
   * Milliseconds between `: ping` comments, which keep proxies from closing an idle stream;
   * `false` sends none. @default 15000
   */
  readonly heartbeat?: number | false
  /** The reconnection delay (ms) the stream's first line tells the client (`retry:`). */
  readonly retry?: number
}

/** `send(event, data, options)`: the event's SSE fields besides its name and data. */
export interface SseSendOptions {
  /** The event's `id:`, which a reconnecting client sends back as `Last-Event-ID`. No CR, LF or NUL. */
  readonly id?: string
}

/**
 * `res.sse()`'s stream of a route with `events`: each `send` validates and strips the data by its
 * event's schema, and settles once the event is handed on (at once while the socket takes more,
 * after `drain` when its buffer is full); it rejects with `StreamClosedError` once the stream has
 * ended or the client has gone.
 */
export interface SseStream<E = Record<string, unknown>> {
  send<K extends keyof E & string>(event: K, data: E[K], options?: SseSendOptions): Promise<void>
  /** Ends the stream after the sends in progress; settles once the response has closed. */
  close(): Promise<void>
  /** Aborted when the client goes (or the stream ends). */
  readonly signal: AbortSignal
}

/**
 * `res.ndjson()`'s stream of a route with `stream`: one JSON value a line, each validated and
 * stripped by the route's schema, with the same flow control as `SseStream`.
 */
export interface NdjsonStream<T = unknown> {
  send(item: T): Promise<void>
  /** Ends the stream after the sends in progress; settles once the response has closed. */
  close(): Promise<void>
  /** Aborted when the client goes (or the stream ends). */
  readonly signal: AbortSignal
}

/** The items `res.ndjson(items)` writes, awaited one at a time, then the stream ends. */
export type StreamItems<T> = AsyncIterable<T> | Iterable<T>

/** `res.ndjson`: a stream to send to, or `await res.ndjson(items)` to send an iterable and end. */
export interface NdjsonHelper<T = unknown> {
  (): NdjsonStream<T>
  (items: StreamItems<T>): Promise<void>
}
