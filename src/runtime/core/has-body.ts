import type { IncomingMessage } from 'node:http'

/**
 * Whether a request carries a body on the wire: a Transfer-Encoding (chunked), or a
 * Content-Length that is not zero. Content-Length is one or more digits (RFC 9110), so `0`, `00`
 * and `000` all say there is none; Node's HTTP parser answers any other spelling (`+0`, `0x0`,
 * `1e0`, an empty value) with a 400 before a request reaches the app. Of those, which only a
 * request double can hold, an empty value counts as none and any other as a body. Express 4's
 * parser leaves `{}` on a request without a body, Express 5's `undefined`: this rule, not
 * `req.body`, says whether one was sent. The one rule of the content-type guard, the body step
 * and the webhook's raw body.
 */
export function hasBodyOnWire(req: Pick<IncomingMessage, 'headers'>): boolean {
  const headers = req.headers
  if (headers['transfer-encoding'] !== undefined) return true
  const length = headers['content-length']
  if (length === undefined) return false
  for (let i = 0; i < length.length; i++) if (length.charCodeAt(i) !== 0x30) return true
  return false
}
