import type { IncomingHttpHeaders } from 'node:http'
import type { NextFunction, Request, Response } from 'express'
import type { InferInput, InferOutput, SchemaAdapter } from '../../engine/adapter.js'
import type { JsonSchema } from '../../engine/json-schema/json-schema-types.js'
import type { StandardSchemaV1 } from '../../engine/standard-schema.js'
import type { GuardLimits } from '../guards/index.js'
import type { ExposureOptions, WarningOptions } from '../middleware/resolve-config.js'
import type { RateLimitOptions } from '../rate-limit/types.js'
import type { CacheOptions } from '../response/cache-control.js'
import type { CreatedOptions, OkOptions } from '../response/types.js'

/** Anything accepted where a schema is: a zod schema, an adapter, a Standard Schema. */
export type Schema = SchemaAdapter<any, any> | StandardSchemaV1<any, any>

type StandardTypes<S> = S extends { readonly '~standard': { readonly types?: infer T } }
  ? NonNullable<T>
  : never

/** What a schema accepts (the type a client sends, or a handler passes to `res.ok`). */
export type SchemaInput<S> =
  S extends SchemaAdapter<any, any>
    ? InferInput<S>
    : StandardTypes<S> extends { readonly input: infer I }
      ? I
      : unknown

/** What a schema produces (the type of `req.body` after validation). */
export type SchemaOutput<S> =
  S extends SchemaAdapter<any, any>
    ? InferOutput<S>
    : StandardTypes<S> extends { readonly output: infer O }
      ? O
      : unknown

/** A link to documentation elsewhere (OpenAPI `externalDocs`). */
export interface ExternalDocs {
  /** Where the documentation is. */
  readonly url: string
  /** What the link leads to (Markdown). */
  readonly description?: string
}

/** A header documented on a route's success response. */
export interface ResponseHeader {
  readonly description?: string
  /** A schema of any library, or a plain JSON Schema object. @default `{ type: 'string' }` */
  readonly schema?: Schema | JsonSchema
}

/**
 * How `generateOpenAPI` documents a route (its summary, tags, security…); the runtime ignores these
 * fields. `security: []` marks the route public (no 401/403).
 */
export interface RouteDocs {
  /** The operation's one-line summary; client exports name their request after it. */
  readonly summary?: string
  /** The operation's longer description (Markdown). */
  readonly description?: string
  /** Tags grouping the operation; the first is its folder in the client exports. */
  readonly tags?: readonly string[]
  /** Marks the operation deprecated in the docs. */
  readonly deprecated?: boolean
  /** Names of the document's security schemes; replaces `defaultSecurity`. @default `defaultSecurity` of generateOpenAPI() */
  readonly security?: readonly string[]
  /** The body's media type: JSON, multipart/form-data (`multipart`) or x-www-form-urlencoded (`form`). @default 'json' */
  readonly bodyType?: 'json' | 'multipart' | 'form'
  /** A link to documentation elsewhere, for this operation. */
  readonly externalDocs?: ExternalDocs
  /** `x-` keys merged onto the operation. */
  readonly extensions?: Readonly<Record<`x-${string}`, unknown>>
  /** Headers documented on the success response. */
  readonly responseHeaders?: Readonly<Record<string, ResponseHeader>>
  /** The operation's id. @default derived from the method and path (`postUsers`) */
  readonly operationId?: string
}

/** What a schema slot of a route holds: a schema, or nothing. */
export type SchemaSlot = Schema | undefined

type Out<S, Fallback> = [S] extends [undefined] ? Fallback : SchemaOutput<S>

/** The type of `req.body` in a `handle()` handler: the body schema's output, unless `transform` changes it. */
export type BodyOf<B> = Out<B, any>

/**
 * A route: its schemas and per-route options. Every field is optional; `sends` is
 * `response`'s alias. Type parameters are the schemas, inferred by `defineRoute()` and `handle()`,
 * and `T`, what `transform` returns (the body's output without one).
 */
export interface RouteDefinition<
  B extends SchemaSlot = undefined,
  P extends SchemaSlot = undefined,
  Q extends SchemaSlot = undefined,
  H extends SchemaSlot = undefined,
  R extends SchemaSlot = undefined,
  T = BodyOf<B>,
> extends RouteDocs {
  /** The body's schema; the validated, stripped value replaces `req.body`. */
  readonly body?: B
  /** The path parameters' schema; the validated values replace `req.params`. */
  readonly params?: P
  /** The query's schema; the validated values replace `req.query` (a key it declares as an array may repeat). */
  readonly query?: Q
  /** The headers' schema, with lower-case header names; the validated values replace those headers. */
  readonly headers?: H
  /** The response data; unknown fields are stripped, a mismatch is a 500. */
  readonly response?: R
  /** Alias of `response`. */
  readonly sends?: R
  /** Runs on the validated body, after validation and before the handler; its result (of any type) is the new `req.body`. */
  readonly transform?: (body: Out<B, unknown>) => T | Promise<T>
  /** A per-route rate limit, checked after the pre-parse guards and before validation. */
  readonly rateLimit?: RateLimitOptions
  /** Cache-Control for the route's successful answers. */
  readonly cache?: CacheOptions
  /** Pre-parse limits for this route, over `validation.limits`. */
  readonly limits?: Partial<GuardLimits>
  /** Every issue of a failing part, not just the first. @default false */
  readonly allErrors?: boolean
  /** Error exposure for this route, over the `validation.expose*` options. */
  readonly sanitize?: ExposureOptions
  /** Development warnings for this route: `false` turns one off here, where `shapeguard()`'s `warnings` leave it on. */
  readonly warnings?: WarningOptions
}

/** Any route definition, whatever its schemas. */
export type AnyRoute = RouteDefinition<any, any, any, any, any, unknown>

/** `req` inside a `handle()` handler: params, body, query (and headers) typed by the route's schemas. */
export type TypedRequest<B, P, Q, H, T = BodyOf<B>> = Request<
  Out<P, Request['params']>,
  any,
  T,
  Out<Q, Request['query']>
> &
  ([H] extends [undefined] ? unknown : { headers: IncomingHttpHeaders & SchemaOutput<H> })

/** `res` inside a `handle()` handler: `ok`, `created`, `accepted` take the response schema's input. */
export type TypedResponse<R> = [R] extends [undefined]
  ? Response
  : Omit<Response, 'ok' | 'created' | 'accepted'> & {
      ok(options: OkOptions<SchemaInput<R>> & { data: SchemaInput<R> }): void
      created(options: CreatedOptions<SchemaInput<R>> & { data: SchemaInput<R> }): void
      accepted(options: CreatedOptions<SchemaInput<R>> & { data: SchemaInput<R> }): void
    }

/** The handler `handle()` wraps: may be async; a rejection reaches the error middleware. */
export type RouteHandler<B, P, Q, H, R, T = BodyOf<B>> = (
  req: TypedRequest<B, P, Q, H, T>,
  res: TypedResponse<R>,
  next: NextFunction,
) => unknown
