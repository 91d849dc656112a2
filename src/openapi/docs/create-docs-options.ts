import { isObject } from '../../shared/is-object.js'
import type { DocsAssets } from './assets.js'
import {
  fail,
  knownKeys,
  optionalBoolean,
  optionalChoice,
  optionalCssColor,
  optionalInteger,
  optionalString,
  optionalUrl,
} from './check.js'

/** Colour scheme of a Swagger UI page: `'auto'` follows the reader's OS preference. */
export type DocsTheme = 'light' | 'dark' | 'auto'

/** A logo shown above the operations. */
export interface DocsLogo {
  /** The image's URL. */
  url: string
  /** The image's alternative text. @default '' */
  altText?: string
  /** A CSS colour behind the logo. */
  backgroundColor?: string
}

/** `createDocs` options: the Swagger UI page, its headers and its assets. */
export interface CreateDocsOptions {
  /** The OpenAPI 3.x document, served as JSON beside the page. */
  spec: object
  /** Browser tab title. @default the spec's `info.title` */
  title?: string
  /** Colour scheme; `'auto'` follows the reader's OS preference. @default 'auto' */
  theme?: DocsTheme
  /** URL of the page's icon. */
  favicon?: string
  /** A logo shown above the operations. */
  logo?: DocsLogo
  /** Raw CSS added after the UI's own. */
  customCss?: string
  /** Which operations are expanded when the page opens: none, tags only (`list`), or all. @default 'list' */
  docExpansion?: 'none' | 'list' | 'full'
  /** How deep the models section is expanded; -1 hides the models. @default 1 */
  defaultModelsExpandDepth?: number
  /** How deep a model is expanded where an operation shows it. @default 1 */
  defaultModelExpandDepth?: number
  /** Orders operations within a tag by path (`alpha`) or by method; `none` keeps the spec's order. @default 'none' */
  operationsSorter?: 'alpha' | 'method' | 'none'
  /** Orders the tags by name (`alpha`); `none` keeps the spec's order. @default 'none' */
  tagsSorter?: 'alpha' | 'none'
  /** Shows the `x-` extensions of operations, parameters and schemas. @default false */
  showExtensions?: boolean
  /** Shows the extensions of parameters Swagger UI hides by default (`pattern`, `maxLength`, …). @default false */
  showCommonExtensions?: boolean
  /** Shows each operation's `operationId`. @default false */
  displayOperationId?: boolean
  /** The search bar. @default true */
  filter?: boolean
  /** Shows at most this many tags. @default every tag */
  maxDisplayedTags?: number
  /** Keeps entered credentials across reloads. @default true */
  persistAuthorization?: boolean
  /** Send cookies with try-it-out requests. @default false */
  withCredentials?: boolean
  /** The OAuth 2 redirect page's URL. @default the `oauth2-redirect.html` served beside the page */
  oauth2RedirectUrl?: string
  /** Body of `function (request) { … }`; what it returns (or `request`) is sent. */
  requestInterceptor?: string
  /** Body of `function (response) { … }`; what it returns (or `response`) is shown. */
  responseInterceptor?: string
  /** Show request snippets (curl) beside try-it-out. @default false */
  requestSnippets?: boolean
  /** A Content-Security-Policy of your own, or `false` for none. @default the automatic policy */
  csp?: string | false
  /** Raw HTML placed before `</head>` (trusted: it is not escaped). */
  headHtml?: string
  /** Where the UI's files come from: the installed `swagger-ui-dist` when there is one, else a CDN (`'auto'`); only the CDN (`'cdn'`); only the package (`'local'`). @default 'auto' */
  assets?: DocsAssets
}

const CREATE_DOCS_KEYS: readonly (keyof CreateDocsOptions)[] = [
  'spec',
  'title',
  'theme',
  'favicon',
  'logo',
  'customCss',
  'docExpansion',
  'defaultModelsExpandDepth',
  'defaultModelExpandDepth',
  'operationsSorter',
  'tagsSorter',
  'showExtensions',
  'showCommonExtensions',
  'displayOperationId',
  'filter',
  'maxDisplayedTags',
  'persistAuthorization',
  'withCredentials',
  'oauth2RedirectUrl',
  'requestInterceptor',
  'responseInterceptor',
  'requestSnippets',
  'csp',
  'headHtml',
  'assets',
]
const LOGO_KEYS: readonly (keyof DocsLogo)[] = ['url', 'altText', 'backgroundColor']

export const THEMES: readonly DocsTheme[] = ['light', 'dark', 'auto']
export const ASSET_MODES: readonly DocsAssets[] = ['auto', 'cdn', 'local']

/** Checks an interceptor body: it must parse alone as a function body and stay in its script. */
export function checkInterceptor(value: unknown, name: string, param: string): string | undefined {
  const body = optionalString(value, name)
  if (body === undefined) return undefined
  if (/<\/?script|<!--/i.test(body)) {
    fail(name, 'JavaScript without "<script", "</script" or "<!--" (write "<\\/script" in strings)')
  }
  try {
    // Parsed, never called: V8 parses the body on its own, so a body that closes the function
    // (`}; evil(); function x() {`) is a SyntaxError here instead of code outside its context.
    new Function(param, body)
  } catch (error) {
    fail(name, `the body of a function (${param}) => …: ${(error as Error).message}`)
  }
  return body
}

/** `csp`: a policy of one line, or false. */
export function checkCsp(value: unknown, name: string): string | false | undefined {
  if (value === undefined || value === false) return value
  if (typeof value !== 'string' || value.trim() === '' || /[\r\n\0]/.test(value)) {
    fail(name, 'a Content-Security-Policy of one line, or false')
  }
  return value
}

/** The spec: an OpenAPI document object, serialised once. */
export function checkSpec(spec: unknown, name = 'spec'): string {
  if (!isObject(spec)) {
    fail(name, 'an OpenAPI document object')
  }
  const version = (spec as { openapi?: unknown; swagger?: unknown }).openapi
  if (typeof version !== 'string' || !version.startsWith('3.')) {
    fail(name, "an OpenAPI 3.x document (its 'openapi' field names the version)")
  }
  try {
    return JSON.stringify(spec)
  } catch (error) {
    return fail(name, `serialisable as JSON (${(error as Error).message})`)
  }
}

/** Checks every `createDocs` option once, when the middleware is created. */
export function checkCreateDocsOptions(options: CreateDocsOptions): void {
  if (options === null || typeof options !== 'object') fail('createDocs(): options', 'an object')
  knownKeys(options, CREATE_DOCS_KEYS, 'createDocs()')
  const o = options as unknown as Record<string, unknown>
  optionalString(o.title, 'title')
  optionalChoice(o.theme, 'theme', THEMES)
  optionalUrl(o.favicon, 'favicon')
  if (o.logo !== undefined) {
    const logo = o.logo as Record<string, unknown> | null
    if (logo === null || typeof logo !== 'object') fail('logo', 'an object { url, altText?, … }')
    knownKeys(logo, LOGO_KEYS, 'createDocs()', 'logo.')
    if (optionalUrl(logo.url, 'logo.url') === undefined) fail('logo.url', 'a URL')
    optionalString(logo.altText, 'logo.altText')
    optionalCssColor(logo.backgroundColor, 'logo.backgroundColor')
  }
  optionalString(o.customCss, 'customCss')
  optionalChoice(o.docExpansion, 'docExpansion', ['none', 'list', 'full'])
  optionalInteger(o.defaultModelsExpandDepth, 'defaultModelsExpandDepth', -1)
  optionalInteger(o.defaultModelExpandDepth, 'defaultModelExpandDepth', -1)
  optionalChoice(o.operationsSorter, 'operationsSorter', ['alpha', 'method', 'none'])
  optionalChoice(o.tagsSorter, 'tagsSorter', ['alpha', 'none'])
  for (const key of [
    'showExtensions',
    'showCommonExtensions',
    'displayOperationId',
    'filter',
    'persistAuthorization',
    'withCredentials',
    'requestSnippets',
  ]) {
    optionalBoolean(o[key], key)
  }
  optionalInteger(o.maxDisplayedTags, 'maxDisplayedTags', 1)
  optionalUrl(o.oauth2RedirectUrl, 'oauth2RedirectUrl')
  checkInterceptor(o.requestInterceptor, 'requestInterceptor', 'request')
  checkInterceptor(o.responseInterceptor, 'responseInterceptor', 'response')
  checkCsp(o.csp, 'csp')
  optionalString(o.headHtml, 'headHtml')
  optionalChoice(o.assets, 'assets', ASSET_MODES)
}
