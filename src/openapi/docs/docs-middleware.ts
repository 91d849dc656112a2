import { createHash, randomBytes } from 'node:crypto'
import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { cdnSource, type DocsAssets } from './assets.js'
import { buildCsp, nonceStyles, scriptHash, serverOrigins } from './csp.js'
import { linkAssets, type PageParts, pageTemplate } from './docs-page.js'
import { loadLocalAssets } from './local-assets.js'
import { OAUTH2_REDIRECT_PATH, oauth2Redirect } from './oauth2-redirect.js'
import { pagePrefix } from './page-url.js'
import { type FixedBody, sendFixed, sendPage } from './send.js'

/** A JSON document served beside the page (the spec, a client export). */
export interface ServedJson {
  /** Below the mount (`/openapi.json`) or as the client requests it (`/docs/openapi.json`). */
  readonly path: string
  readonly json: string
}

/** Everything a docs middleware serves, fixed when it is created. */
export interface DocsMiddlewareInput {
  readonly parts: PageParts
  readonly assets: DocsAssets
  /** The user's policy, `false` for none, undefined for the automatic one. */
  readonly csp: string | false | undefined
  readonly spec: object
  /** The spec first: the page fetches it from `files[0].path`. */
  readonly files: readonly [ServedJson, ...ServedJson[]]
  readonly imageOrigins: readonly string[]
}

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

/** The middleware behind every docs page: the page at the mount, its spec, exports and assets. */
export function docsMiddleware(input: DocsMiddlewareInput): RequestHandler {
  const linked = linkAssets(input.parts.ui, input.assets)
  const template = pageTemplate(input.parts, linked)
  const assetOrigin = input.assets === 'local' ? "'self'" : cdnSource(input.parts.ui)
  const csp =
    input.csp ??
    buildCsp({
      assetOrigin,
      inlineScripts: [input.parts.bootstrap],
      connectOrigins: serverOrigins(input.spec),
      imageOrigins: input.imageOrigins,
    })
  // Under the automatic policy, a UI that nonces its style elements gets a fresh nonce per page.
  const styleNonce = input.csp === undefined && input.parts.styleNonce === true
  const files = new Map<string, FixedBody>()
  for (const file of input.files) files.set(file.path, jsonBody(file.json))
  if (input.assets === 'local') {
    for (const asset of loadLocalAssets(input.parts.ui)) {
      files.set(`/${asset.urlPath}`, {
        body: asset.body,
        contentType: asset.contentType,
        etag: asset.etag,
        // The URL holds the file's hash: a new version is a new URL.
        cacheControl: 'public, max-age=31536000, immutable',
      })
    }
  }
  if (input.parts.oauth2Redirect) {
    files.set(OAUTH2_REDIRECT_PATH, {
      body: Buffer.from(oauth2Redirect.html, 'utf8'),
      contentType: 'text/html; charset=utf-8',
      etag: `"${createHash('sha256').update(oauth2Redirect.html).digest('base64url')}"`,
      cacheControl: 'no-cache',
      csp:
        `default-src 'none'; script-src ${scriptHash(oauth2Redirect.script)}; ` +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    })
  }
  const specPath = input.files[0].path

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
    const file = files.get(path) ?? files.get(req.baseUrl + path)
    if (file === undefined) next()
    else sendFixed(req, res, file, csp)
  }
}
