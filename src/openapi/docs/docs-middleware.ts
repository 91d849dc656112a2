import { createHash, randomBytes } from 'node:crypto'
import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { cdnSource, type DocsAssets } from './assets.js'
import { checkSpec } from './create-docs-options.js'
import { buildCsp, nonceStyles, scriptHash, serverOrigins } from './csp.js'
import { linkAssets, type PageParts, pageTemplate } from './docs-page.js'
import { failureNotice } from './load-failure.js'
import { chooseLocalAssets } from './local-assets.js'
import { OAUTH2_REDIRECT_PATH, oauth2Redirect } from './oauth2-redirect.js'
import { pagePrefix } from './page-url.js'
import { type FixedBody, sendFixed, sendPage } from './send.js'

/** A JSON document served beside the page (the spec, a client export). */
export interface ServedJson {
  /** Below the mount (`/openapi.json`) or as the client requests it (`/docs/openapi.json`). */
  readonly path: string
  readonly json: string
}

/** The spec first: the page fetches it from the first file's path. */
export type ServedFiles = readonly [ServedJson, ...ServedJson[]]

/** The options of every docs function that shape the middleware, checked by that function. */
export interface MiddlewareOptions {
  /** Where the UI's files come from. @default 'auto' */
  readonly assets?: DocsAssets | undefined
  /** The user's policy, `false` for none, undefined for the automatic one. */
  readonly csp?: string | false | undefined
}

/** The spec alone, at `/openapi.json` below the mount. */
const specOnly = (json: string): ServedFiles => [{ path: '/openapi.json', json }]

function jsonBody(json: string): FixedBody {
  const body = Buffer.from(json, 'utf8')
  return {
    body,
    contentType: 'application/json; charset=utf-8',
    etag: `"${createHash('sha256').update(body).digest('base64url')}"`,
    cacheControl: 'no-cache',
  }
}

// The URL of a served file relative to the page: a path written as the client requests it
// (`/docs/openapi.json` under `app.use('/docs', …)`) loses the mount; any other is below it.
function relativeTo(req: Request, path: string): string {
  const base = req.baseUrl
  const below = base !== '' && path.startsWith(`${base}/`) ? path.slice(base.length) : path
  return below.slice(1)
}

/**
 * The middleware behind every docs page, whichever function made it: the spec is checked and
 * serialised once, then `page` makes the page from it; the page is served at the mount, the spec
 * and any other `files` beside it, the UI's files under `assets/` when the app serves them, every
 * answer with the security headers and a Content-Security-Policy.
 */
export function docsMiddleware(
  spec: object,
  options: MiddlewareOptions,
  page: () => PageParts,
  files: (json: string) => ServedFiles = specOnly,
): RequestHandler {
  const served = files(checkSpec(spec))
  const parts = page()
  // Chosen once, here: every page and its CSP name the same origin for the UI's files.
  const mode = options.assets ?? 'auto'
  const local = chooseLocalAssets(parts.ui, mode)
  const notice = failureNotice(parts.ui, { mode, local: local !== undefined })
  const template = pageTemplate(parts, linkAssets(parts.ui, local), notice)
  const assetOrigin = local === undefined ? cdnSource(parts.ui) : "'self'"
  const csp =
    options.csp ??
    buildCsp({
      assetOrigin,
      inlineScripts: [parts.bootstrap],
      connectOrigins: serverOrigins(spec),
      imageOrigins: parts.imageOrigins ?? [],
    })
  // Under the automatic policy, a UI that nonces its style elements gets a fresh nonce per page.
  const styleNonce = options.csp === undefined && parts.styleNonce === true
  const fixed = new Map<string, FixedBody>()
  for (const file of served) fixed.set(file.path, jsonBody(file.json))
  if (local !== undefined) {
    for (const asset of local) {
      fixed.set(`/${asset.urlPath}`, {
        body: asset.body,
        contentType: asset.contentType,
        etag: asset.etag,
        // The URL holds the file's hash: a new version is a new URL.
        cacheControl: 'public, max-age=31536000, immutable',
      })
    }
  }
  if (parts.oauth2Redirect) {
    fixed.set(OAUTH2_REDIRECT_PATH, {
      body: Buffer.from(oauth2Redirect.html, 'utf8'),
      contentType: 'text/html; charset=utf-8',
      etag: `"${createHash('sha256').update(oauth2Redirect.html).digest('base64url')}"`,
      cacheControl: 'no-cache',
      csp:
        `default-src 'none'; script-src ${scriptHash(oauth2Redirect.script)}; ` +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    })
  }
  const specPath = served[0].path

  return function shapeguardDocs(req: Request, res: Response, next: NextFunction): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next()
      return
    }
    const path = req.path
    if (path === '/') {
      const prefix = pagePrefix(req)
      const specUrl = prefix + relativeTo(req, specPath)
      const nonce = styleNonce ? randomBytes(16).toString('base64') : undefined
      const policy = nonce === undefined ? csp : `${csp}; ${nonceStyles(assetOrigin, nonce)}`
      sendPage(req, res, template.render(prefix, specUrl, nonce), policy)
      return
    }
    const file = fixed.get(path) ?? fixed.get(req.baseUrl + path)
    if (file === undefined) next()
    else sendFixed(req, res, file, csp)
  }
}
