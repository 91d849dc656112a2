import { createHash } from 'node:crypto'
import type { RequestHandler } from 'express'
import { toBruno } from '../exports/to-bruno.js'
import { toInsomnia } from '../exports/to-insomnia.js'
import { toPostman } from '../exports/to-postman.js'
import type { DocsUi } from './assets.js'
import { fail, knownKeys, optionalChoice } from './check.js'
import { docsMiddleware, type ServedFiles, type ServedJson } from './docs-middleware.js'
import { checkServeUiOptions, SERVE_UI_KEYS, type ServeUiOptions, uiPage } from './serve-ui.js'

/** Where `serveDocs` serves the spec and the client exports (each made once, at creation). */
export interface DocsExports {
  /** The spec as JSON. @default `/openapi.json` below the mount */
  json?: string
  /** A Postman Collection v2.1 (`toPostman`). */
  postman?: string
  /** An Insomnia export, format 4 (`toInsomnia`). */
  insomnia?: string
  /** A Bruno collection (`toBruno`). */
  bruno?: string
}

/** `serveDocs` options. */
export interface ServeDocsOptions extends ServeUiOptions {
  /** The docs page: Scalar, Swagger UI or Redoc. @default 'scalar' */
  ui?: DocsUi
  /**
   * URL paths of the files served beside the page: as the client requests them
   * (`/docs/openapi.json` under `app.use('/docs', …)`) or below the mount (`/openapi.json`).
   */
  exports?: DocsExports
}

const UIS: readonly DocsUi[] = ['scalar', 'swagger', 'redoc']
const SERVE_DOCS_KEYS: readonly (keyof ServeDocsOptions)[] = [...SERVE_UI_KEYS, 'ui', 'exports']

// Produces each export from the spec; the key is the option's name. IDs are seeded from the
// spec, so a restart serves the same file (same ETag, and a re-import updates instead of adding).
const seedOf = (json: string) => createHash('sha256').update(json).digest('hex').slice(0, 32)
const EXPORTERS: Readonly<Record<keyof DocsExports, (spec: object, json: string) => string>> = {
  json: (_spec, json) => json,
  postman: (spec, json) => JSON.stringify(toPostman(spec, { seed: seedOf(json) })),
  insomnia: (spec, json) => JSON.stringify(toInsomnia(spec, { seed: seedOf(json) })),
  bruno: (spec, json) => JSON.stringify(toBruno(spec, { seed: seedOf(json) })),
}

function checkPath(value: unknown, name: string): string {
  if (
    typeof value !== 'string' ||
    !/^(\/[A-Za-z0-9._~-]+)+$/.test(value) ||
    value.split('/').some((s) => s === '.' || s === '..')
  ) {
    fail(name, "a URL path such as '/docs/openapi.json' (letters, digits, . _ ~ - and /)")
  }
  return value
}

function servedFiles(spec: object, json: string, exports: unknown): ServedFiles {
  if (exports === undefined) return [{ path: '/openapi.json', json }]
  if (exports === null || typeof exports !== 'object') fail('exports', 'an object')
  const given = exports as Record<string, unknown>
  knownKeys(given, Object.keys(EXPORTERS), 'serveDocs()', 'exports.')
  const spec0: ServedJson = {
    path: given.json === undefined ? '/openapi.json' : checkPath(given.json, 'exports.json'),
    json,
  }
  const rest: ServedJson[] = []
  for (const [key, make] of Object.entries(EXPORTERS)) {
    if (key === 'json' || given[key] === undefined) continue
    rest.push({ path: checkPath(given[key], `exports.${key}`), json: make(spec, json) })
  }
  return [spec0, ...rest]
}

/**
 * Serves a docs page (Scalar by default), the spec and the client exports, at paths relative to
 * wherever it is mounted.
 * @param options `ui` default `'scalar'`; `exports.json` default `/openapi.json` below the mount.
 * @example app.use('/docs', serveDocs(spec, { ui: 'swagger', assets: 'local' }))
 */
export function serveDocs(spec: object, options?: ServeDocsOptions): RequestHandler {
  const o = checkServeUiOptions(options, 'serveDocs', SERVE_DOCS_KEYS) as ServeDocsOptions
  const ui = optionalChoice(o.ui, 'ui', UIS) ?? 'scalar'
  return docsMiddleware(
    spec,
    o,
    () => uiPage(ui, spec, o),
    (json) => servedFiles(spec, json, o.exports),
  )
}
