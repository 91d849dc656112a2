import { comparator, encodedLength } from './constant-time.js'
import { headerValue } from './headers.js'
import { failure, signatures, type Verifier } from './scheme.js'
import { nowSeconds, parseTimestamp, withinWindow } from './timestamp.js'

/**
 * Svix (`svix-*` headers) and Standard Webhooks (`webhook-*`): `<prefix>-signature` holds a
 * space-separated list of `v1,<base64>`, each an HMAC-SHA256 of `${id}.${timestamp}.${rawBody}`
 * keyed by the base64-decoded secret; any may match, other versions (`v1a`) are ignored. The
 * timestamp must lie within the tolerance on either side of now.
 */
export function svixScheme(
  prefix: 'svix' | 'webhook',
  keys: readonly Buffer[],
  toleranceSecs: number,
): Verifier {
  const idHeader = `${prefix}-id`
  const timestampHeader = `${prefix}-timestamp`
  const signatureHeader = `${prefix}-signature`
  const missingSignature = failure('missing-signature', signatureHeader)
  const missingId = failure('missing-id', idHeader)
  const missingTimestamp = failure('missing-timestamp', timestampHeader)
  const malformedTimestamp = failure('malformed-header', timestampHeader)
  const malformedSignature = failure('malformed-header', signatureHeader)
  const expired = failure('timestamp-expired', timestampHeader)
  const mismatch = failure('signature-mismatch', signatureHeader)

  const compare = comparator(encodedLength('sha256', 'base64'))
  return function verifySvix(req, body) {
    const header = headerValue(req, signatureHeader)
    if (header === undefined) return missingSignature
    const id = headerValue(req, idHeader)
    if (id === undefined) return missingId
    const timestamp = headerValue(req, timestampHeader)
    if (timestamp === undefined) return missingTimestamp
    const seconds = parseTimestamp(timestamp)
    if (seconds === undefined) return malformedTimestamp
    const candidates: string[] = []
    // Space-separated `version,signature` items, read in place.
    for (let start = 0; start <= header.length; ) {
      let end = header.indexOf(' ', start)
      if (end === -1) end = header.length
      const comma = header.indexOf(',', start)
      if (comma <= start || comma >= end) return malformedSignature
      if (comma - start === 2 && header.startsWith('v1', start)) {
        candidates.push(header.slice(comma + 1, end))
      }
      start = end + 1
    }
    if (!withinWindow(seconds, nowSeconds(), toleranceSecs, 'both')) return expired
    const expected = signatures(keys, 'sha256', 'base64', `${id}.${timestamp}.`, body)
    return compare(expected, candidates) ? undefined : mismatch
  }
}
