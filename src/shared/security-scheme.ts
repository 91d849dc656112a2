// The security schemes of `shapeguard({ auth })`: one declaration that the runtime enforces
// (runtime/auth/) and the document describes (openapi/), so a scheme documented is a scheme
// checked. `Req` is the host's request type: shared/ knows no web framework.

/** A security scheme as OpenAPI 3.1 writes it: bearer, basic, API key, OAuth 2.0, OpenID Connect, mutual TLS. */
export type SecurityScheme =
  | {
      readonly type: 'http'
      readonly scheme: 'bearer' | 'basic' | (string & {})
      readonly bearerFormat?: string
      readonly description?: string
    }
  | {
      readonly type: 'apiKey'
      readonly in: 'header' | 'query' | 'cookie'
      readonly name: string
      readonly description?: string
    }
  | {
      readonly type: 'oauth2'
      readonly flows: Readonly<Record<string, unknown>>
      readonly description?: string
    }
  | {
      readonly type: 'openIdConnect'
      readonly openIdConnectUrl: string
      readonly description?: string
    }
  | { readonly type: 'mutualTLS'; readonly description?: string }

/**
 * What a verifier answers: the principal (who is calling, any truthy value), or a falsy value
 * (`undefined`, `null`, `false`, `0`, `''`) to refuse the credentials (401). Throwing
 * `AppError.forbidden()` answers 403.
 */
export type Verdict<P> = P | undefined | null | false | 0 | ''

/** A verifier's answer, now or later. */
export type Verified<P> = Verdict<P> | Promise<Verdict<P>>

/** Checks a bearer token (`Authorization: Bearer <token>`). */
export type BearerVerifier<P = unknown, Req = unknown> = (token: string, req: Req) => Verified<P>

/** Checks HTTP basic credentials (`Authorization: Basic <base64 user:password>`). */
export type BasicVerifier<P = unknown, Req = unknown> = (
  user: string,
  password: string,
  req: Req,
) => Verified<P>

/** Checks an API key read from a header, a query parameter or a cookie. */
export type KeyVerifier<P = unknown, Req = unknown> = (key: string, req: Req) => Verified<P>

/** Checks a request by any means (a session, a client certificate, a proxy's header). */
export type RequestVerifier<P = unknown, Req = unknown> = (req: Req) => Verified<P>

interface SchemeBase {
  /** What the scheme is, for the document. */
  readonly description?: string
}

// Only an API key says where it is sent: `in` tells its object from the others without a `type`.
interface NotApiKey extends SchemeBase {
  readonly in?: never
}

/** A bearer scheme: `Authorization: Bearer <token>` (RFC 6750), documented as HTTP bearer. */
export interface BearerScheme<P = unknown, Req = unknown> extends NotApiKey {
  readonly type: 'bearer'
  readonly verify: BearerVerifier<P, Req>
  /** What the token is, for the document (e.g. `JWT`). */
  readonly bearerFormat?: string
  /** The realm of the `WWW-Authenticate` challenge. @default 'api' */
  readonly realm?: string
}

/** A basic scheme: `Authorization: Basic <base64 user:password>` (RFC 7617). */
export interface BasicScheme<P = unknown, Req = unknown> extends NotApiKey {
  readonly type: 'basic'
  readonly verify: BasicVerifier<P, Req>
  /** The realm of the `WWW-Authenticate` challenge. @default 'api' */
  readonly realm?: string
}

/** An API key in a header, a query parameter or a cookie. */
export interface ApiKeyScheme<P = unknown, Req = unknown> extends SchemeBase {
  readonly type?: 'apiKey'
  /** Where the key is sent. */
  readonly in: 'header' | 'query' | 'cookie'
  /** The header, query parameter or cookie that holds it. */
  readonly name: string
  readonly verify: KeyVerifier<P, Req>
}

/** Any other scheme: a function of the request, and how the document describes it. */
export interface CustomScheme<P = unknown, Req = unknown> extends NotApiKey {
  readonly type: 'custom'
  readonly verify: RequestVerifier<P, Req>
  /** The scheme as the document writes it (e.g. `{ type: 'apiKey', in: 'cookie', name: 'sid' }`). */
  readonly document: SecurityScheme
  /** The `WWW-Authenticate` challenge of a 401. @default from `document` */
  readonly challenge?: string
}

/** One scheme of `auth`: a scheme object, or (named `bearer` or `basic`) its verifier alone. */
export type AuthScheme<Req = unknown> =
  | BearerVerifier<any, Req>
  | BasicVerifier<any, Req>
  | BearerScheme<any, Req>
  | BasicScheme<any, Req>
  | ApiKeyScheme<any, Req>
  | CustomScheme<any, Req>

/** `shapeguard({ auth })`: each security scheme by name, with its verifier. */
export interface AuthSchemes<Req = unknown> {
  /** `Authorization: Bearer <token>`: its verifier, or a scheme object. */
  readonly bearer?: BearerVerifier<any, Req> | AuthSchemeObject<Req>
  /** `Authorization: Basic …`: its verifier, or a scheme object. */
  readonly basic?: BasicVerifier<any, Req> | AuthSchemeObject<Req>
  readonly [scheme: string]: AuthScheme<Req> | undefined
}

/** A scheme given as an object. */
export type AuthSchemeObject<Req = unknown> =
  | BearerScheme<any, Req>
  | BasicScheme<any, Req>
  | ApiKeyScheme<any, Req>
  | CustomScheme<any, Req>

/**
 * A route's `security`: alternatives, any one of which admits the request. Each is a scheme name,
 * or an array of names that must all pass (OpenAPI's requirement object). `[]`: public.
 */
export type SecurityRequirement<Name extends string = string> = readonly (Name | readonly Name[])[]

/** One scheme of `auth` resolved at mount: how it reads credentials, checks and challenges. */
export type ResolvedScheme =
  | {
      readonly kind: 'bearer'
      readonly name: string
      readonly verify: BearerVerifier
      readonly realm: string
      readonly document: SecurityScheme
    }
  | {
      readonly kind: 'basic'
      readonly name: string
      readonly verify: BasicVerifier
      readonly realm: string
      readonly document: SecurityScheme
    }
  | {
      readonly kind: 'apiKey'
      readonly name: string
      readonly in: 'header' | 'query' | 'cookie'
      /** The header (lower-cased), query parameter or cookie that holds the key. */
      readonly key: string
      readonly verify: KeyVerifier
      readonly document: SecurityScheme
    }
  | {
      readonly kind: 'custom'
      readonly name: string
      readonly verify: RequestVerifier
      readonly challenge: string
      readonly document: SecurityScheme
    }
