import { createHmac, type KeyObject } from 'node:crypto'
import { encodedLength, pairComparator } from './constant-time.js'
import { headerValue } from './headers.js'
import { failure, type Verifier } from './scheme.js'
import { nowSeconds, parseTimestamp, withinWindow } from './timestamp.js'

/**
 * Svix (`svix-*` headers) and Standard Webhooks (`webhook-*`): `<prefix>-signature` holds a
 * space-separated list of `v1,<base64>`, each an HMAC-SHA256 of `${id}.${timestamp}.${rawBody}`
 * keyed by the base64-decoded secret; any may match, other versions (`v1a`) are ignored. The
 * timestamp must lie within the tolerance on either side of now.
 */
export function svixScheme(
  prefix: 'svix' | 'webhook',
  keys: readonly KeyObject[],
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

  const equal = pairComparator(encodedLength('sha256', 'base64'))
  return function verifySvix(req, body) {
    const header = headerValue(req, signatureHeader)
    if (header === undefined) return missingSignature
    const id = headerValue(req, idHeader)
    if (id === undefined) return missingId
    const timestamp = headerValue(req, timestampHeader)
    if (timestamp === undefined) return missingTimestamp
    const seconds = parseTimestamp(timestamp)
    if (seconds === undefined) return malformedTimestamp
    // Space-separated `version,signature` items, read in place; a header usually holds one `v1`,
    // kept as `first`, so a request makes no array.
    let first: string | undefined
    let more: string[] | undefined
    if (header.startsWith('v1,') && header.indexOf(' ') === -1) {
      // One `v1` signature, as senders write with one secret: the loop below finds the same.
      first = header.slice(3)
    } else {
      for (let start = 0; start <= header.length; ) {
        let end = header.indexOf(' ', start)
        if (end === -1) end = header.length
        const comma = header.indexOf(',', start)
        if (comma <= start || comma >= end) return malformedSignature
        if (comma - start === 2 && header.startsWith('v1', start)) {
          const candidate = header.slice(comma + 1, end)
          if (first === undefined) first = candidate
          else if (more === undefined) more = [candidate]
          else more.push(candidate)
        }
        start = end + 1
      }
    }
    if (!withinWindow(seconds, nowSeconds(), toleranceSecs, 'both')) return expired
    if (first === undefined) return mismatch
    const head = `${id}.${timestamp}.`
    // Every key against every candidate: neither an early match nor a key's position shows.
    let found = false
    for (const key of keys) {
      const expected = createHmac('sha256', key)
        .update(head, 'latin1')
        .update(body)
        .digest('base64')
      if (equal(expected, first)) found = true
      if (more !== undefined)
        for (const candidate of more) if (equal(expected, candidate)) found = true
    }
    return found ? undefined : mismatch
  }
}
