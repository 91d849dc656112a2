import type { Schema, SchemaInput, SchemaOutput } from '../../engine/adapter.js'
import type { JsonSchema } from '../../engine/json-schema/json-schema-types.js'
import type { DeprecatedOption } from '../../shared/deprecation.js'
import type { FileField } from '../../shared/file-field.js'
import type { SecurityRequirement } from '../../shared/security-scheme.js'
import type { SchemeName } from '../auth/types.js'
import type { DeclaredError } from '../core/app-error.js'
import type { GuardLimits } from '../guards/index.js'
import type { TimeoutOption } from '../lifecycle/timeout-options.js'
import type { ExposureOptions, WarningOptions } from '../middleware/resolve-config.js'
import type { RateLimitOptions } from '../rate-limit/types.js'
import type { CacheOptions } from '../response/cache-control.js'
import type { EventsSlot } from '../response/stream-types.js'

export type { Schema, SchemaInput, SchemaOutput } from '../../engine/adapter.js'
export type { EventsSlot } from '../response/stream-types.js'

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
 * How `generateOpenAPI` documents a route (its summary, tags, …); the runtime ignores these fields
 * but `deprecated`, whose headers it sends.
 */
export interface RouteDocs {
  /** The operation's one-line summary; client exports name their request after it. */
  readonly summary?: string
  /** The operation's longer description (Markdown). */
  readonly description?: string
  /** Tags grouping the operation; the first is its folder in the client exports. */
  readonly tags?: readonly string[]
  /**
   * Marks the route deprecated: the document says so, and every answer carries `Deprecation`
   * (RFC 9745, the `since` date, `@0` without one), `Sunset` (RFC 8594) with `sunset`, and a `Link`
   * to `externalDocs` (`rel="deprecation"`); in development each call logs a warning line.
   */
  readonly deprecated?: DeprecatedOption
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
  /** OpenAPI links of the success response, by name: the operations its answer feeds (the fuzzer's stateful phase follows them). */
  readonly links?: Readonly<Record<string, RouteLink>>
}

/** An OpenAPI link: the operation an answer feeds and, by parameter name, runtime expressions of its values (`$response.body#/data/id`). */
export interface RouteLink {
  readonly operationId: string
  readonly parameters?: Readonly<Record<string, string>>
  readonly description?: string
}

/** What a schema slot of a route holds: a schema, or nothing. */
export type SchemaSlot = Schema | undefined

/** What a route's `files` slot holds: one field per upload, each made by `file()` or `file.many()`. */
export type FilesSlot = Readonly<Record<string, FileField>> | undefined

/**
 * What a route declares for its handler, one field per slot: the one type parameter of every route
 * type, as hono bundles a route's inputs in its `Input`. `defineRoute()`, `handle()` and
 * `validate()` infer it from the route's fields; a new slot is one more field here.
 */
export interface RouteSlots {
  /** The body's schema; the validated, stripped value replaces `req.body`. */
  readonly body?: SchemaSlot
  /** The path parameters' schema; the validated values replace `req.params`. */
  readonly params?: SchemaSlot
  /** The query's schema; the validated values replace `req.query` (a key it declares as an array may repeat). */
  readonly query?: SchemaSlot
  /** The headers' schema, with lower-case header names; the validated values replace those headers. */
  readonly headers?: SchemaSlot
  /**
   * The route's uploads, one field each made by `file()` or `file.many()`: the route reads its
   * `multipart/form-data` body itself, and its text fields are the `body`.
   */
  readonly files?: FilesSlot
  /** The cookies' schema (the `Cookie` header, parsed); the validated values replace `req.cookies`. */
  readonly cookies?: SchemaSlot
  /** The signed cookies' schema (signed as cookie-parser signs them); the verified, validated values replace `req.signedCookies`. */
  readonly signedCookies?: SchemaSlot
  /**
   * The security schemes of `shapeguard({ auth })` that admit the route's requests, checked after
   * the rate limit and before validation: alternatives, each a scheme name or an array of names
   * that must all pass; `[]` keeps the route public. The verifier's principal is `req.auth`.
   * @default shapeguard()'s `defaultSecurity`
   */
  readonly security?: SecurityRequirement<SchemeName>
  /** The response data; unknown fields are stripped, a mismatch is a 500. */
  readonly response?: SchemaSlot
  /** Alias of `response`. */
  readonly sends?: SchemaSlot
  /**
   * A Server-Sent Events route: one schema per event name. The handler writes with `res.sse()`;
   * each event's data is validated and stripped by its schema as it is sent.
   */
  readonly events?: EventsSlot
  /**
   * An NDJSON route (`application/x-ndjson`): the schema of each line. The handler writes with
   * `res.ndjson()`; each item is validated and stripped by it as it is sent.
   */
  readonly stream?: SchemaSlot
}

/** The schema a route's slots `S` (or a route) hold in slot `K`, or `undefined`. */
export type SlotOf<S, K extends keyof RouteSlots> = K extends keyof S
  ? [Exclude<S[K], undefined>] extends [never]
    ? undefined
    : Exclude<S[K], undefined>
  : undefined

/** The response schema of a route's slots: `response`, or its alias `sends`. */
export type ResponseOf<S> = [SlotOf<S, 'response'>] extends [undefined]
  ? SlotOf<S, 'sends'>
  : SlotOf<S, 'response'>

/** The data each event of a route's `events` takes (its schema's input), by event name. */
export type EventDataOf<S> = [SlotOf<S, 'events'>] extends [undefined]
  ? never
  : { [K in keyof SlotOf<S, 'events'> & string]: SchemaInput<SlotOf<S, 'events'>[K]> }

/** A slot's schema output, or `Fallback` where the slot is empty (`any` for a slot of any type). */
export type OutputOr<S, Fallback> = 0 extends 1 & S
  ? any
  : [S] extends [undefined]
    ? Fallback
    : SchemaOutput<S>

/** The type of `req.body` in a `handle()` handler: the body schema's output, unless `transform` changes it. */
export type BodyOf<B> = OutputOr<B, any>

/**
 * The type of `req.body` in a route's handler: what its `transform` returns, else its body
 * schema's output. `S` is a route's slots, or a route itself (`typeof route`).
 */
export type RequestBodyOf<S> = 'transform' extends keyof S
  ? S extends { readonly transform?: (body: never) => infer T }
    ? Awaited<T>
    : never
  : BodyOf<SlotOf<S, 'body'>>

/** What `transform` receives: the body schema's output. */
type ValidatedBody<S> = OutputOr<SlotOf<S, 'body'>, unknown>

// Homomorphic over S, so that TypeScript infers S from a route's fields (a mapped type's keys,
// unlike an indexed access, infer back), property by property: the body's schema is known before
// `transform`, whose parameter it types, is checked.
type Slots<S> = { readonly [K in keyof S & keyof RouteSlots]?: S[K] }

/** A route's options besides its slots: `transform`, limits, exposure, warnings, documentation. */
export interface RouteOptions<S, T> extends RouteDocs {
  /** Runs on the validated body, after validation and before the handler; its result (of any type) is the new `req.body`. */
  readonly transform?: (body: ValidatedBody<S>) => T | Promise<T>
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
  /**
   * The errors the handler may raise: registry codes (`'NOT_FOUND'`) or `AppError.define()`
   * factories, each documented as its status's response, typed in the client, accepted by the fuzzer.
   */
  readonly errors?: readonly DeclaredError[]
  /**
   * The route's time limits, over `shapeguard()`'s `timeout`: milliseconds from its first step to
   * its answer (then `req.signal` aborts and the client gets 503 HANDLER_TIMEOUT), or
   * `{ handler, idle, total, retryAfter }` (`idle` and `total` limit a stream).
   */
  readonly timeout?: TimeoutOption
}

/**
 * A route: its slots (schemas) and per-route options. Every field is optional; `sends` is
 * `response`'s alias. `S` is the route's slots, inferred by `defineRoute()`, `handle()` and
 * `validate()`; `T` is what `transform` returns (the body's output without one).
 */
export type RouteDefinition<S extends RouteSlots = {}, T = BodyOf<SlotOf<S, 'body'>>> = Slots<S> &
  RouteOptions<S, T>

/** Any route definition, whatever its slots. */
export type AnyRoute = RouteDefinition<any, unknown>
