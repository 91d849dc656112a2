// The tool-neutral picture of a document that the three writers (Postman, Insomnia, Bruno)
// render: built once by `buildModel`, plain data, every text already made safe for templates.

/** A piece of a path: literal text (already percent-encoded) or a path parameter. */
export type PathPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'param'; readonly name: string; readonly variable: string }

/** A query parameter, header or form field with its example value. */
export interface ExportParam {
  readonly name: string
  readonly value: string
  readonly enabled: boolean
  readonly description: string
}

/** A path parameter: `variable` is its name in the tools' syntax (`:variable`, `{{ _.variable }}`). */
export interface ExportPathParam extends ExportParam {
  readonly variable: string
}

export interface ExportField extends ExportParam {
  readonly file: boolean
}

export type ExportBody =
  | { readonly kind: 'json'; readonly mediaType: string; readonly text: string }
  | {
      readonly kind: 'text'
      readonly mediaType: string
      readonly text: string
      readonly language: 'text' | 'xml' | 'html' | 'javascript'
    }
  | { readonly kind: 'form'; readonly mediaType: string; readonly fields: readonly ExportField[] }
  | {
      readonly kind: 'multipart'
      readonly mediaType: string
      readonly fields: readonly ExportField[]
    }
  | { readonly kind: 'file'; readonly mediaType: string }

export type OAuthGrant = 'authorization_code' | 'implicit' | 'password' | 'client_credentials'

/** How a request authenticates; every secret is a variable name, never a value. */
export type ExportAuth =
  | { readonly type: 'none' }
  | { readonly type: 'bearer'; readonly token: string }
  | { readonly type: 'basic' | 'digest'; readonly username: string; readonly password: string }
  | {
      readonly type: 'apiKey'
      readonly in: 'header' | 'query' | 'cookie'
      readonly name: string
      readonly value: string
    }
  | {
      readonly type: 'oauth2'
      readonly grant: OAuthGrant
      readonly authorizationUrl: string
      readonly tokenUrl: string
      readonly refreshUrl: string
      readonly scopes: readonly string[]
      readonly clientId: string
      readonly clientSecret: string
      readonly redirectUrl: string
    }

/** An apiKey a security requirement needs besides the request's main auth (AND of schemes). */
export interface ExtraKey {
  readonly in: 'header' | 'query' | 'cookie'
  readonly name: string
  readonly variable: string
}

export interface ExportRequest {
  /** Stable key for seeded IDs: method and path. */
  readonly key: string
  readonly name: string
  readonly method: string
  readonly description: string
  readonly path: readonly PathPart[][]
  readonly pathParams: readonly ExportPathParam[]
  readonly query: readonly ExportParam[]
  /** Header parameters, then a `Cookie` header for cookie parameters. */
  readonly headers: readonly ExportParam[]
  readonly body: ExportBody | undefined
  /** The auth the request uses, whether its own or the document's. */
  readonly auth: ExportAuth
  /** True when the request has no `security` of its own (it uses the document's). */
  readonly inheritsAuth: boolean
  readonly extraKeys: readonly ExtraKey[]
}

export interface ExportFolder {
  readonly name: string
  readonly description: string
  readonly requests: ExportRequest[]
}

export interface ExportVariable {
  readonly name: string
  readonly value: string
  readonly secret: boolean
  readonly description: string
}

export interface ExportModel {
  readonly name: string
  readonly version: string
  readonly description: string
  readonly variables: readonly ExportVariable[]
  readonly folders: readonly ExportFolder[]
  /** Operations without a tag, after the folders. */
  readonly requests: readonly ExportRequest[]
  /** The document's own `security`, as the collection's auth. */
  readonly auth: ExportAuth
}

/** Options shared by `toPostman`, `toInsomnia` and `toBruno`. */
export interface ClientExportOptions {
  /**
   * Derive every ID from this seed and the item's method and path (or folder name), so the same
   * document gives the same file for version control.
   * @default random IDs from `crypto.randomUUID()`
   */
  readonly seed?: string
  /** The collection's name. @default the document's `info.title` */
  readonly name?: string
  /** The `baseUrl` variable's value. @default `servers[0].url` with its variables' defaults */
  readonly baseUrl?: string
}
