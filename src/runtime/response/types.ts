import type { Logger } from '../logging/types.js'
import type { NdjsonHelper, SseOptions, SseStream } from './stream-types.js'

/** `res.ok()`: 200 (or the method's status from `response.statusCodes`) unless `status` is given. */
export interface OkOptions<T = unknown> {
  data?: T
  message?: string
  status?: number
}

/** `res.created()` (201) and `res.accepted()` (202). */
export interface CreatedOptions<T = unknown> {
  data?: T
  message?: string
}

/** `res.paginated()`: offset pagination; `pages` is computed. */
export interface PaginatedOptions<T = unknown> {
  data: readonly T[]
  total: number
  page: number
  limit: number
  message?: string
}

/** `res.cursorPaginated()`: cursor pagination. */
export interface CursorPaginatedOptions<T = unknown> {
  data: readonly T[]
  nextCursor: string | null
  prevCursor?: string | null
  hasMore: boolean
  total?: number
  message?: string
}

/** `res.fail()`: sends the error envelope without throwing; 400 unless `status` is given. */
export interface FailOptions<Details = unknown> {
  code: string
  message: string
  status?: number
  details?: Details
}

/** `data` of a `res.paginated()` envelope. */
export interface PaginatedData<T = unknown> {
  readonly items: readonly T[]
  readonly total: number
  readonly page: number
  readonly limit: number
  readonly pages: number
}

/** `data` of a `res.cursorPaginated()` envelope. */
export interface CursorPaginatedData<T = unknown> {
  readonly items: readonly T[]
  readonly nextCursor: string | null
  readonly prevCursor: string | null
  readonly hasMore: boolean
  readonly total?: number
}

/** The success envelope with the default shape. */
export interface SuccessEnvelope<T = unknown> {
  readonly success: true
  readonly message: string
  readonly data: T
}

/** The error envelope with the default shape. */
export interface ErrorEnvelope<Details = unknown> {
  readonly success: false
  readonly message: string
  readonly error: {
    readonly code: string
    readonly message: string
    readonly details: Details | null
  }
}

/**
 * What a success helper returns: `undefined` once the answer is sent; with an asynchronous
 * response schema, a promise that settles (never rejects) once it is sent, or once it is known it
 * never will be.
 */
export type ResponseSent = Promise<void> | undefined

/**
 * The helpers `shapeguard()` puts on every response. With an asynchronous response schema a
 * success helper returns before the answer is sent, and gives a promise that settles (never
 * rejects) once it is: `await res.ok(…)` before throwing or calling `next()`.
 */
export interface ResponseHelpers {
  ok<T>(options?: OkOptions<T>): ResponseSent
  created<T>(options?: CreatedOptions<T>): ResponseSent
  accepted<T>(options?: CreatedOptions<T>): ResponseSent
  noContent(): void
  paginated<T>(options: PaginatedOptions<T>): ResponseSent
  cursorPaginated<T>(options: CursorPaginatedOptions<T>): ResponseSent
  fail<Details>(options: FailOptions<Details>): void
  /** A Server-Sent Events stream of a route with `events` (data typed per event in `handle()`). */
  sse(options?: SseOptions): SseStream
  /** An NDJSON stream of a route with `stream`, or `await res.ndjson(items)` to send an iterable. */
  ndjson: NdjsonHelper
}

declare global {
  // Express's own augmentation point: the helpers are typed on every `res` after `import 'shapeguard'`.
  namespace Express {
    interface Response extends ResponseHelpers {}
    interface Request {
      /** The request ID set by `shapeguard()`; the empty string when request IDs are disabled. */
      id: string
      /**
       * A logger bound to this request, made on first use: its lines go to the backend of the
       * `shapeguard()` the request runs under, with its `requestId` (and trace IDs).
       */
      log: Logger
      /**
       * On every request shapeguard guards: aborted when the route's timeout passes, when the
       * client goes or the answer ends, or when a shutdown's grace ends (undefined elsewhere on
       * Node 22; Node 24+ has its own).
       */
      signal?: AbortSignal
      /** On an SSE route: the `Last-Event-ID` a reconnecting client sent, if valid. */
      lastEventId?: string | undefined
    }
  }
}
