import type { IncomingMessage, ServerResponse } from 'node:http'
import { FILE_CSP } from './csp.js'

/**
 * The headers every docs response carries (page, spec, exports, assets): no MIME sniffing, no
 * framing, no referrer, and a Content-Security-Policy unless `csp` is false.
 */
export function setSecurityHeaders(res: ServerResponse, csp: string | false): void {
  if (csp !== false) res.setHeader('Content-Security-Policy', csp)
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('X-Frame-Options', 'DENY')
  res.setHeader('Referrer-Policy', 'no-referrer')
}

/** A body computed once, with its validator. */
export interface FixedBody {
  readonly body: Buffer
  readonly contentType: string
  readonly etag: string
  readonly cacheControl: string
  /** Its own policy; default nothing may run (`FILE_CSP`). */
  readonly csp?: string
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  return header.split(',').some((tag) => {
    const t = tag.trim()
    return t === '*' || t === etag || t === `W/${etag}`
  })
}

/** Sends a precomputed file (spec JSON, client export, UI asset): ETag, 304, HEAD. */
export function sendFixed(
  req: IncomingMessage,
  res: ServerResponse,
  file: FixedBody,
  csp: string | false,
): void {
  setSecurityHeaders(res, csp === false ? false : (file.csp ?? FILE_CSP))
  res.setHeader('Cache-Control', file.cacheControl)
  res.setHeader('ETag', file.etag)
  if (matchesEtag(req.headers['if-none-match'], file.etag)) {
    res.statusCode = 304
    res.end()
    return
  }
  res.statusCode = 200
  res.setHeader('Content-Type', file.contentType)
  res.setHeader('Content-Length', file.body.length)
  res.end(req.method === 'HEAD' ? undefined : file.body)
}

/** Sends a docs page. */
export function sendPage(
  req: IncomingMessage,
  res: ServerResponse,
  html: string,
  csp: string | false,
): void {
  setSecurityHeaders(res, csp)
  const body = Buffer.from(html, 'utf8')
  res.statusCode = 200
  res.setHeader('Content-Type', 'text/html; charset=utf-8')
  res.setHeader('Cache-Control', 'no-cache')
  res.setHeader('Content-Length', body.length)
  res.end(req.method === 'HEAD' ? undefined : body)
}
