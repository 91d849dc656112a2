import type { RequestHandler } from 'express'
import { type CreateDocsOptions, checkCreateDocsOptions } from './create-docs-options.js'
import { docsMiddleware } from './docs-middleware.js'
import { swaggerPage } from './swagger-page.js'

/**
 * Serves a Swagger UI page with every option Swagger UI takes here (logo, favicon, CSS,
 * interceptors, sorting, OAuth2 redirect, `headHtml`), for an OpenAPI document, where it is
 * mounted: the spec beside it as `openapi.json`, with security headers and an automatic CSP on
 * every response. `serveSwaggerUI` is its short form: the same page from a few options.
 * @param options the spec and the page's options; `assets` defaults to `'auto'`, `theme` to `'auto'`.
 * @example app.use('/docs', createDocs({ spec, title: 'Shop API', assets: 'local' }))
 */
export function createDocs(options: CreateDocsOptions): RequestHandler {
  checkCreateDocsOptions(options)
  return docsMiddleware(options.spec, options, () => swaggerPage(options))
}
