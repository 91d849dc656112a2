import type { IncomingHttpHeaders } from 'node:http'
import type { NextFunction, Request, Response } from 'express'
import type { FilesOf } from '../../shared/file-field.js'
import type { AuthOf } from '../auth/types.js'
import type { NdjsonHelper, SseOptions, SseStream } from '../response/stream-types.js'
import type { CreatedOptions, OkOptions, ResponseSent } from '../response/types.js'
import type {
  EventDataOf,
  OutputOr,
  RequestBodyOf,
  ResponseOf,
  SchemaInput,
  SchemaOutput,
  SlotOf,
} from './route-types.js'

// What a handler sees of its route. Each type takes the route's slots `S` (`typeof route` works
// too) and reads the slots it needs, so a new slot changes only the types that use it.

// The fields a route declares among those Express or a plugin also types on `req`
// (`cookies: any`, multer's `files`): they leave Express's Request, because `any & T` is `any`
// and multer's type would mix with the route's.
type Replaced<S> = {
  [K in 'files' | 'cookies' | 'signedCookies']: [SlotOf<S, K>] extends [undefined] ? never : K
}['files' | 'cookies' | 'signedCookies']

type Without<R, K extends PropertyKey> = [K] extends [never] ? R : Omit<R, K>

// A slot's field on `req`, typed where the route declares the slot.
type Declared<S, K extends 'files' | 'cookies' | 'signedCookies', V> = [SlotOf<S, K>] extends [
  undefined,
]
  ? unknown
  : { [P in K]: V }

/**
 * `req` inside a `handle()` handler: params, body, query (and headers, files, cookies and signed
 * cookies, where declared) typed by the route's schemas, `auth` by its security's verifiers.
 */
export type TypedRequest<S, T = RequestBodyOf<S>> = Without<
  Request<
    OutputOr<SlotOf<S, 'params'>, Request['params']>,
    any,
    T,
    OutputOr<SlotOf<S, 'query'>, Request['query']>
  >,
  Replaced<S> | 'auth'
> & {
  auth: AuthOf<SlotOf<S, 'security'>>
  /**
   * Aborted when the route's timeout passes (a `TimeoutError`), when the client goes or the
   * answer ends (`StreamClosedError`), or when a shutdown's grace ends: pass it to the work the
   * handler starts (`fetch`, a database query).
   */
  signal: AbortSignal
} & ([SlotOf<S, 'headers'>] extends [undefined]
    ? unknown
    : { headers: IncomingHttpHeaders & SchemaOutput<SlotOf<S, 'headers'>> }) &
  Declared<S, 'files', FilesOf<SlotOf<S, 'files'>>> &
  Declared<S, 'cookies', SchemaOutput<SlotOf<S, 'cookies'>>> &
  Declared<S, 'signedCookies', SchemaOutput<SlotOf<S, 'signedCookies'>>> &
  (Streams<S> extends true ? StreamRequest : unknown)

// Whether the route streams: it declares `events` or `stream`.
type Streams<S> = [SlotOf<S, 'events'> | SlotOf<S, 'stream'>] extends [undefined] ? false : true

/** What a streaming route's `req` carries besides Express's. */
export interface StreamRequest {
  /** The `Last-Event-ID` a reconnecting SSE client sent, or undefined (none, or not a valid ID). */
  lastEventId: string | undefined
}

type Data<S> = SchemaInput<ResponseOf<S>>

// The helpers a route's slots type: `ok`, `created`, `accepted` by `response`, `sse` by `events`,
// `ndjson` by `stream`.
type Typed<S> =
  | ([ResponseOf<S>] extends [undefined] ? never : 'ok' | 'created' | 'accepted')
  | ([SlotOf<S, 'events'>] extends [undefined] ? never : 'sse')
  | ([SlotOf<S, 'stream'>] extends [undefined] ? never : 'ndjson')

/**
 * `res` inside a `handle()` handler: `ok`, `created`, `accepted` take the response schema's input,
 * `sse()` sends the route's `events`, `ndjson()` its `stream` items.
 */
export type TypedResponse<S> = [Typed<S>] extends [never]
  ? Response
  : Omit<Response, Typed<S>> &
      ([ResponseOf<S>] extends [undefined]
        ? unknown
        : {
            ok(options: OkOptions<Data<S>> & { data: Data<S> }): ResponseSent
            created(options: CreatedOptions<Data<S>> & { data: Data<S> }): ResponseSent
            accepted(options: CreatedOptions<Data<S>> & { data: Data<S> }): ResponseSent
          }) &
      ([SlotOf<S, 'events'>] extends [undefined]
        ? unknown
        : { sse(options?: SseOptions): SseStream<EventDataOf<S>> }) &
      ([SlotOf<S, 'stream'>] extends [undefined]
        ? unknown
        : { ndjson: NdjsonHelper<SchemaInput<SlotOf<S, 'stream'>>> })

/** The handler `handle()` wraps: may be async; a rejection reaches the error middleware. */
export type RouteHandler<S, T = RequestBodyOf<S>> = (
  req: TypedRequest<S, T>,
  res: TypedResponse<S>,
  next: NextFunction,
) => unknown
