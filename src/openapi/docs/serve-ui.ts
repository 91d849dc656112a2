import type { RequestHandler } from 'express'
import type { DocsAssets, DocsUi } from './assets.js'
import { fail, knownKeys, optionalBoolean, optionalChoice, optionalString } from './check.js'
import { ASSET_MODES, checkCsp, checkSpec, type DocsTheme, THEMES } from './create-docs-options.js'
import { type DocsMiddlewareInput, docsMiddleware, type ServedJson } from './docs-middleware.js'
import type { PageParts } from './docs-page.js'
import { redocPage } from './redoc-page.js'
import { scalarPage } from './scalar-page.js'
import { swaggerPage } from './swagger-page.js'

/** Options every docs page takes. */
export interface ServeUiOptions {
  /** Where the UI's files come from: a CDN, or its installed package, served under the mount (`'local'`). @default 'cdn' */
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
  if (options === null || typeof options !== 'object') fail(`${fn} options`, 'an object')
  knownKeys(options, known, `${fn}()`)
  const o = options as Record<string, unknown>
  optionalChoice(o.assets, 'assets', ASSET_MODES)
  optionalString(o.title, 'title')
  checkCsp(o.csp, 'csp')
  return o as ServeUiOptions
}

/** The parts of a page for a UI, from its checked options. */
export function uiPage(ui: DocsUi, spec: object, options: ServeSwaggerUIOptions): PageParts {
  if (ui === 'scalar') return scalarPage(spec, options.title)
  if (ui === 'redoc') return redocPage(spec, options.title)
  return swaggerPage({
    spec,
    ...(options.title !== undefined && { title: options.title }),
    ...(options.theme !== undefined && { theme: options.theme }),
    requestSnippets: options.snippets ?? true,
    persistAuthorization: options.persist ?? true,
  })
}

/** The middleware for a page and the JSON files served beside it. */
export function uiMiddleware(
  ui: DocsUi,
  spec: object,
  options: ServeSwaggerUIOptions,
  files: DocsMiddlewareInput['files'],
): RequestHandler {
  return docsMiddleware({
    parts: uiPage(ui, spec, options),
    assets: options.assets ?? 'cdn',
    csp: options.csp,
    spec,
    files,
    imageOrigins: [],
  })
}

function specFile(spec: unknown): [ServedJson] {
  return [{ path: '/openapi.json', json: checkSpec(spec) }]
}

/**
 * Serves a Scalar API reference for an OpenAPI document where it is mounted, the spec beside it.
 * @param options `assets` default `'cdn'`.
 * @example app.use('/docs', serveScalar(spec, { assets: 'local' }))
 */
export function serveScalar(spec: object, options?: ServeUiOptions): RequestHandler {
  const o = checkServeUiOptions(options, 'serveScalar')
  return uiMiddleware('scalar', spec, o, specFile(spec))
}

/**
 * Serves a Swagger UI page for an OpenAPI document where it is mounted, the spec beside it.
 * @param options `theme` default `'auto'`, `snippets` and `persist` default true, `assets` `'cdn'`.
 * @example app.use('/docs', serveSwaggerUI(spec, { theme: 'dark' }))
 */
export function serveSwaggerUI(spec: object, options?: ServeSwaggerUIOptions): RequestHandler {
  const o = checkServeUiOptions(options, 'serveSwaggerUI', SWAGGER_KEYS) as ServeSwaggerUIOptions
  optionalChoice(o.theme, 'theme', THEMES)
  optionalBoolean(o.snippets, 'snippets')
  optionalBoolean(o.persist, 'persist')
  return uiMiddleware('swagger', spec, o, specFile(spec))
}

/**
 * Serves a Redoc page (Redoc 2, a classic script) for an OpenAPI document where it is mounted.
 * @param options `assets` default `'cdn'`.
 * @example app.use('/docs', serveRedoc(spec))
 */
export function serveRedoc(spec: object, options?: ServeUiOptions): RequestHandler {
  const o = checkServeUiOptions(options, 'serveRedoc')
  return uiMiddleware('redoc', spec, o, specFile(spec))
}
