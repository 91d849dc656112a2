import type { RequestHandler } from 'express'
import { type CreateDocsOptions, checkCreateDocsOptions, checkSpec } from './create-docs-options.js'
import { httpOrigin } from './csp.js'
import { docsMiddleware } from './docs-middleware.js'
import { swaggerPage } from './swagger-page.js'

/**
 * Serves a Swagger UI page for an OpenAPI document at the path it is mounted on, the spec beside it
 * as `openapi.json`, with security headers and an automatic CSP on every response.
 * @param options SPEC 4.4; `assets` defaults to `'cdn'`, `theme` to `'auto'`.
 * @example app.use('/docs', createDocs({ spec, title: 'Shop API', assets: 'local' }))
 */
export function createDocs(options: CreateDocsOptions): RequestHandler {
  checkCreateDocsOptions(options)
  const json = checkSpec(options.spec)
  const imageOrigins = [options.favicon, options.logo?.url]
    .map(httpOrigin)
    .filter((o): o is string => o !== undefined)
  return docsMiddleware({
    parts: swaggerPage(options),
    assets: options.assets ?? 'cdn',
    csp: options.csp,
    spec: options.spec,
    files: [{ path: '/openapi.json', json }],
    imageOrigins,
  })
}
