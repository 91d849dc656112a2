import * as crypto from 'node:crypto'
import type { Request, Response } from 'express'
import { expressSends } from '../host/express-response.js'

// The etag package's hash (Express's ETag): SHA-1 of the UTF-8 bytes, base64, 27 characters.
// Node 20.12+ hashes a string in one call; earlier Nodes go through a Hash object.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: string) => string })
  .hash
const sha1 = oneShot
  ? (text: string) => oneShot('sha1', text, 'base64')
  : (text: string) => crypto.createHash('sha1').update(text, 'utf8').digest('base64')

// The app's settings, read as `app.get(name)` answers them but without its two calls (this runs
// for every answer): a mounted app's settings inherit its parent's through their prototype.
// Express 4's app.get skips a value only Object.prototype holds (a polluted process); here such a
// `json *` value only sends the answer through res.json, and `etag` and `etag fn` are always the
// app's own.
type Settings = Record<string, unknown>

/**
 * Whether shapeguard may write a JSON answer itself rather than through `res.json`: the app sets
 * none of Express's `json replacer`, `json spaces` and `json escape` settings (which change the
 * bytes), and the response's `json` and `send` are Express's own, not replaced or wrapped on the
 * response, its app's `app.response` or `express.response` (a request logger capturing the body,
 * an agent, an app's own wrapper). A response double with no app always goes through `res.json`.
 */
export function ownJson(res: Response): boolean {
  const settings = (res.app as { settings?: Settings } | undefined)?.settings
  return (
    typeof settings === 'object' &&
    settings !== null &&
    expressSends(res) &&
    !settings['json replacer'] &&
    !settings['json spaces'] &&
    !settings['json escape']
  )
}

// A GET or HEAD with a validator: Express decides freshness (304) from the answer's ETag.
function conditional(req: Request): boolean {
  const method = req.method
  if (method !== 'GET' && method !== 'HEAD') return false
  const headers = req.headers
  return Boolean(headers['if-none-match'] || headers['if-modified-since'])
}

function entityTag(text: string, length: number): string {
  return `"${length.toString(16)}-${sha1(text).substring(0, 27)}"`
}

/**
 * Sends `text` (a JSON text, as `res.json` would have made it; see `ownJson`) with the bytes and
 * headers `res.json` writes: `Content-Type: application/json; charset=utf-8`, `Content-Length`, and
 * the ETag the app's `etag` setting asks for (weak by default, strong, a custom function, none),
 * no body for HEAD. Where Express has more to decide (a conditional GET that may be a 304, a
 * Content-Type or Transfer-Encoding already set, a 204, 205 or 304 status), it hands the same
 * text to `res.send`, as `res.json` does.
 */
export function sendJson(res: Response, text: string): void {
  const req = res.req as Request | undefined
  const status = res.statusCode
  if (
    req === undefined ||
    status === 204 ||
    status === 205 ||
    status === 304 ||
    res.getHeader('Content-Type') !== undefined ||
    res.getHeader('Transfer-Encoding') !== undefined ||
    conditional(req)
  ) {
    if (!res.get('Content-Type')) res.set('Content-Type', 'application/json')
    res.send(text)
    return
  }
  const length = Buffer.byteLength(text)
  res.setHeader('Content-Type', 'application/json; charset=utf-8')
  res.setHeader('Content-Length', String(length))
  if (!res.getHeader('ETag')) {
    // ownJson() saw the app's settings before the answer was made.
    const settings = res.app.settings as Settings
    const generate = settings['etag fn']
    if (typeof generate === 'function') {
      const etag = settings.etag
      if (etag === true || etag === 'weak') res.setHeader('ETag', `W/${entityTag(text, length)}`)
      else if (etag === 'strong') res.setHeader('ETag', entityTag(text, length))
      else {
        // The app's own function, called as Express calls it: the body's bytes, no encoding.
        const tag = generate(Buffer.from(text, 'utf8'), undefined)
        if (tag) res.set('ETag', tag)
      }
    }
  }
  if (req.method === 'HEAD') res.end()
  else res.end(text, 'utf8')
}
