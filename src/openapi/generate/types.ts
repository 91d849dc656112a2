import type {
  AnyRoute,
  ExternalDocs,
  RouteDocs,
  Schema,
} from '../../runtime/pipeline/route-types.js'
import type { ResponseShape } from '../../shared/envelope-shape.js'
import type { AuthSchemes, SecurityRequirement } from '../../shared/security-scheme.js'

export type { ExternalDocs, ResponseHeader } from '../../runtime/pipeline/route-types.js'

export type { SecurityScheme } from '../../shared/security-scheme.js'

/** What documents one operation beside its schemas: the route's documentation options, its security and errors. */
export type OperationOptions = RouteDocs & Pick<AnyRoute, 'security' | 'errors'>

/**
 * One documented route: a route definition (`defineRoute()`'s result or inline), its schemas and
 * its documentation fields.
 */
export type OpenAPIRoute = AnyRoute

/** A renaming of the envelope (the app's `response.shape`): new field name → token. */
export type EnvelopeShape = ResponseShape

/** How error answers are written: the error envelope, or RFC 9457 problem details. */
export type ErrorFormat = 'envelope' | 'problem+json'

/** Something that warns: a logger's `warn`, or any function. */
export type WarningSink = (message: string) => void

/**
 * The configuration of `generateOpenAPI`. `routes` maps `<METHOD> <path>` keys (`:param` paths) to
 * route definitions; `app` documents the routes registered with `handle()`/`validate()`
 * on an Express app or router (an explicit `routes` entry wins for the same method and path).
 */
export interface OpenAPIConfig {
  /** The API's name (`info.title`). */
  readonly title: string
  /** The API's version (`info.version`), not OpenAPI's. */
  readonly version: string
  /** What the API does (`info.description`, Markdown). */
  readonly description?: string
  /** A URL of the API's terms of service (`info.termsOfService`). */
  readonly termsOfService?: string
  /** Who to contact about the API (`info.contact`). */
  readonly contact?: {
    /** A person or team. */
    readonly name?: string
    /** An email address. */
    readonly email?: string
    /** A URL of a contact page. */
    readonly url?: string
  }
  /** The API's license (`info.license`). */
  readonly license?: {
    /** The license's name, e.g. `MIT`. */
    readonly name: string
    /** A URL of the license's text; give this or `identifier`. */
    readonly url?: string
    /** An SPDX expression, e.g. `MIT`; give this or `url`. */
    readonly identifier?: string
  }
  /** Where the API is served (`servers`); the first is the client exports' `baseUrl`. */
  readonly servers?: readonly { readonly url: string; readonly description?: string }[]
  /** Prepended to every route path (e.g. `/api/v1`; `api/v1/` is read as `/api/v1`). */
  readonly prefix?: string
  /** Route definitions by `<METHOD> <path>` key (`'POST /users/:id'`). */
  readonly routes?: Readonly<Record<string, OpenAPIRoute>>
  /** An Express 4 or 5 app or router whose `handle()`/`validate()` routes are documented. */
  readonly app?: unknown
  /**
   * The object given to `shapeguard({ auth })`: every scheme is documented under
   * `components.securitySchemes`. @default the `app`'s shapeguard() auth, else none
   */
  readonly auth?: AuthSchemes<any>
  /** The requirement of every operation without its own `security`. @default the `app`'s shapeguard() defaultSecurity, else [] */
  readonly defaultSecurity?: SecurityRequirement
  /** The document's tags (`tags`), each with its description or link. */
  readonly tags?: readonly {
    readonly name: string
    readonly description?: string
    readonly externalDocs?: ExternalDocs
  }[]
  /** A link to documentation elsewhere, for the whole API. */
  readonly externalDocs?: ExternalDocs
  /** Named schemas (any library) for `components/schemas`, referenced wherever routes use them. */
  readonly components?: Readonly<Record<string, Schema>>
  /**
   * The envelope options (shapeguard()'s `response`, passed as it is): `shape` (renaming) and
   * `statusCodes` (success status per method), read from the `app`'s shapeguard() when not given;
   * `includeRequestId` is not documented.
   */
  readonly response?: {
    /** The envelope's field names, as `shapeguard()`'s `response.shape` renames them. @default the app's shapeguard() shape, else the default envelope */
    readonly shape?: EnvelopeShape
    /** The success status per method, as `shapeguard()` sends it. @default the app's shapeguard() statusCodes, else POST 201, others 200 */
    readonly statusCodes?: Readonly<
      Partial<Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', number>>
    >
    /** Accepted so that the app's `response` passes as it is; it changes nothing in the document. */
    readonly includeRequestId?: boolean
  }
  /** The app's error options (shapeguard()'s `errors`, passed as they are): how errors are documented. */
  readonly errors?: {
    /** The envelope, or RFC 9457 problem details. @default the app's shapeguard() format, else `'envelope'` */
    readonly format?: ErrorFormat
    /** Problem types are this URI followed by the code. @default the app's, else `about:blank` */
    readonly problemTypeBase?: string
    /** Accepted so that the app's `errors` pass as they are; it changes nothing in the document. */
    readonly fallbackMessage?: string
    /** Accepted so that the app's `errors` pass as they are; it changes nothing in the document. */
    readonly onError?: (...args: never[]) => unknown
  }
  /** `x-` keys merged onto the document's root (a key without `x-` gets it, with a warning). */
  readonly extensions?: Readonly<Record<`x-${string}`, unknown>>
  /**
   * Hears every warning (duplicate routes, renamed operationIds, schemas documented wider than
   * they validate). @default `console.warn` with a `shapeguard:` prefix
   */
  readonly onWarning?: WarningSink
}

/** An OpenAPI 3.1 document (plain JSON data). */
export type OpenAPIDocument = {
  readonly openapi: '3.1.0'
  readonly info: Record<string, unknown>
  readonly paths: Record<string, Record<string, unknown>>
  readonly components: Record<string, Record<string, unknown>>
  readonly [key: string]: unknown
}
