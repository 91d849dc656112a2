import type { KeyObject } from 'node:crypto'
import { comparator, encodedLength } from './constant-time.js'
import { headerValue } from './headers.js'
import { failure, signatures, type Verifier } from './scheme.js'
import { nowSeconds, parseTimestamp, withinWindow } from './timestamp.js'

const HEADER = 'stripe-signature'
const missingSignature = failure('missing-signature', HEADER)
const missingTimestamp = failure('missing-timestamp', HEADER)
const malformed = failure('malformed-header', HEADER)
const expired = failure('timestamp-expired', HEADER)
const mismatch = failure('signature-mismatch', HEADER)

/**
 * Stripe: `Stripe-Signature: t=<seconds>,v1=<hex>[,v1=<hex>…]`, HMAC-SHA256 of `${t}.${rawBody}`
 * keyed by the whole `whsec_…` secret; any `v1` may match. Like Stripe's SDK, only timestamps
 * older than the tolerance are refused; other schemes (`v0=`) are ignored.
 */
export function stripeScheme(keys: readonly KeyObject[], toleranceSecs: number): Verifier {
  const compare = comparator(encodedLength('sha256', 'hex'))
  return function verifyStripe(req, body) {
    const header = headerValue(req, HEADER)
    if (header === undefined) return missingSignature
    let timestamp: string | undefined
    const candidates: string[] = []
    // Items between commas, read in place: no array of items per request.
    for (let start = 0; start <= header.length; ) {
      let end = header.indexOf(',', start)
      if (end === -1) end = header.length
      const eq = header.indexOf('=', start)
      if (eq <= start || eq >= end) return malformed
      // The key is read by its characters: `t` (116) or `v1` (118, 49); no string per item.
      const keyLength = eq - start
      const first = header.charCodeAt(start)
      if (keyLength === 1 && first === 116) {
        if (timestamp !== undefined) return malformed
        timestamp = header.slice(eq + 1, end)
      } else if (keyLength === 2 && first === 118 && header.charCodeAt(start + 1) === 49) {
        candidates.push(header.slice(eq + 1, end))
      }
      start = end + 1
    }
    if (timestamp === undefined) return missingTimestamp
    const seconds = parseTimestamp(timestamp)
    if (seconds === undefined) return malformed
    if (candidates.length === 0) return missingSignature
    if (!withinWindow(seconds, nowSeconds(), toleranceSecs, 'past')) return expired
    const expected = signatures(keys, 'sha256', 'hex', `${timestamp}.`, body)
    return compare(expected, candidates) ? undefined : mismatch
  }
}
