import type { KeyObject } from 'node:crypto'
import { comparator, encodedLength } from './constant-time.js'
import { headerValue } from './headers.js'
import { failure, signatures, type Verifier } from './scheme.js'
import { nowSeconds, parseTimestamp, withinWindow } from './timestamp.js'

/** One signature in one header: GitHub, Shopify and custom schemes. */
export interface SignedHeaderScheme {
  readonly header: string
  readonly algorithm: string
  readonly encoding: 'hex' | 'base64'
  readonly prefix: string
  /** With a timestamp, the HMAC covers `${timestamp}.${rawBody}` and the window is both ways. */
  readonly timestamp?: { readonly header: string; readonly toleranceSecs: number }
}

/** An HMAC of the raw body (after `${timestamp}.` when there is one), prefixed, in one header. */
export function signedHeaderScheme(
  keys: readonly KeyObject[],
  scheme: SignedHeaderScheme,
): Verifier {
  const { header: name, algorithm, encoding, prefix, timestamp } = scheme
  const compare = comparator(encodedLength(algorithm, encoding))
  const missingSignature = failure('missing-signature', name)
  const malformed = failure('malformed-header', name)
  const mismatch = failure('signature-mismatch', name)
  const tsName = timestamp?.header ?? ''
  const missingTimestamp = failure('missing-timestamp', tsName)
  const malformedTimestamp = failure('malformed-header', tsName)
  const expired = failure('timestamp-expired', tsName)

  return function verifySignedHeader(req, body) {
    const header = headerValue(req, name)
    if (header === undefined) return missingSignature
    if (!header.startsWith(prefix)) return malformed
    let head = ''
    if (timestamp !== undefined) {
      const text = headerValue(req, tsName)
      if (text === undefined) return missingTimestamp
      const seconds = parseTimestamp(text)
      if (seconds === undefined) return malformedTimestamp
      if (!withinWindow(seconds, nowSeconds(), timestamp.toleranceSecs, 'both')) return expired
      head = `${text}.`
    }
    const expected = signatures(keys, algorithm, encoding, head, body)
    return compare(expected, [header.slice(prefix.length)]) ? undefined : mismatch
  }
}
