import type { RequestHandler } from 'express'
import type { DocsAssets, DocsUi } from './assets.js'
import { fail, knownKeys, optionalBoolean, optionalChoice, optionalString } from './check.js'
import {
  ASSET_MODES,
  type CreateDocsOptions,
  checkCsp,
  type DocsTheme,
  THEMES,
} from './create-docs-options.js'
import { docsMiddleware } from './docs-middleware.js'
import type { PageParts } from './docs-page.js'
import { redocPage } from './redoc-page.js'
import { scalarPage } from './scalar-page.js'
import { swaggerPage } from './swagger-page.js'

/** Options every docs page takes. */
export interface ServeUiOptions {
  /** Where the UI's files come from: its installed package, served under the mount, when there is one, else a CDN (`'auto'`); only the CDN (`'cdn'`); only the package (`'local'`). @default 'auto' */
  assets?: DocsAssets
  /** Browser tab title. @default the spec's `info.title` */
  title?: string
  /** A Content-Security-Policy of your own, or `false` for none. @default the automatic policy */
  csp?: string | false
}

/** `serveSwaggerUI` options. */
export interface ServeSwaggerUIOptions extends ServeUiOptions {
  /** Colour scheme; `'auto'` follows the reader's OS preference. @default 'auto' */
  theme?: DocsTheme
  /** Request snippets (curl) beside try-it-out. @default true */
  snippets?: boolean
  /** Keep entered credentials across reloads (localStorage). @default true */
  persist?: boolean
}

/** The options every page takes. */
export const SERVE_UI_KEYS: readonly (keyof ServeUiOptions)[] = ['assets', 'title', 'csp']
const SWAGGER_KEYS: readonly (keyof ServeSwaggerUIOptions)[] = [
  ...SERVE_UI_KEYS,
  'theme',
  'snippets',
  'persist',
]

/** Checks the options every page takes, and that `options` has no key but those in `known`. */
export function checkServeUiOptions(
  options: unknown,
  fn: string,
  known: readonly string[] = SERVE_UI_KEYS,
): ServeUiOptions {
  if (options === undefined) return {}
  if (options === null || typeof options !== 'object') fail(`${fn}(): options`, 'an object')
  knownKeys(options, known, `${fn}()`)
  const o = options as Record<string, unknown>
  optionalChoice(o.assets, 'assets', ASSET_MODES)
  optionalString(o.title, 'title')
  checkCsp(o.csp, 'csp')
  return o as ServeUiOptions
}

/** `serveSwaggerUI`'s options as the `createDocs` options they stand for. */
function createDocsOptions(spec: object, options: ServeSwaggerUIOptions): CreateDocsOptions {
  return {
    spec,
    ...(options.title !== undefined && { title: options.title }),
    ...(options.theme !== undefined && { theme: options.theme }),
    requestSnippets: options.snippets ?? true,
    persistAuthorization: options.persist ?? true,
  }
}

/** The page for a UI, from its checked options; Swagger UI's is `createDocs`'s page. */
export function uiPage(ui: DocsUi, spec: object, options: ServeSwaggerUIOptions): PageParts {
  if (ui === 'scalar') return scalarPage(spec, options.title)
  if (ui === 'redoc') return redocPage(spec, options.title)
  return swaggerPage(createDocsOptions(spec, options))
}

/**
 * Serves a Scalar API reference for an OpenAPI document where it is mounted, the spec beside it.
 * @param options `assets` default `'auto'`.
 * @example app.use('/docs', serveScalar(spec, { assets: 'local' }))
 */
export function serveScalar(spec: object, options?: ServeUiOptions): RequestHandler {
  const o = checkServeUiOptions(options, 'serveScalar')
  return docsMiddleware(spec, o, () => uiPage('scalar', spec, o))
}

/**
 * Serves a Swagger UI page for an OpenAPI document where it is mounted, the spec beside it: the
 * page `createDocs` serves, from a few options (request snippets are on here).
 * @param options `theme` default `'auto'`, `snippets` and `persist` default true, `assets` `'auto'`.
 * @example app.use('/docs', serveSwaggerUI(spec, { theme: 'dark' }))
 */
export function serveSwaggerUI(spec: object, options?: ServeSwaggerUIOptions): RequestHandler {
  const o = checkServeUiOptions(options, 'serveSwaggerUI', SWAGGER_KEYS) as ServeSwaggerUIOptions
  optionalChoice(o.theme, 'theme', THEMES)
  optionalBoolean(o.snippets, 'snippets')
  optionalBoolean(o.persist, 'persist')
  return docsMiddleware(spec, o, () => uiPage('swagger', spec, o))
}

/**
 * Serves a Redoc page (Redoc 2, a classic script) for an OpenAPI document where it is mounted.
 * @param options `assets` default `'auto'`.
 * @example app.use('/docs', serveRedoc(spec))
 */
export function serveRedoc(spec: object, options?: ServeUiOptions): RequestHandler {
  const o = checkServeUiOptions(options, 'serveRedoc')
  return docsMiddleware(spec, o, () => uiPage('redoc', spec, o))
}
