import { createHash, type KeyObject } from 'node:crypto'
import { comparator, encodedLength, safeEqual } from './constant-time.js'
import { headerValue } from './headers.js'
import { failure, signatures, type Verifier } from './scheme.js'
import { normalizedVariants, type PublicUrl, urlVariants } from './twilio-url.js'

const HEADER = 'x-twilio-signature'
const missingSignature = failure('missing-signature', HEADER)
const mismatch = failure('signature-mismatch', HEADER)

function isForm(contentType: string | undefined): boolean {
  if (contentType === undefined) return false
  const semi = contentType.indexOf(';')
  const type = (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase()
  return type === 'application/x-www-form-urlencoded'
}

// Twilio signs the form parameters sorted by name, each name followed by its value; a repeated
// name's distinct values sorted (as twilio-node's validator does).
function formText(body: Buffer): string {
  const values = new Map<string, string[]>()
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) {
    const list = values.get(name)
    if (list === undefined) values.set(name, [value])
    else list.push(value)
  }
  let text = ''
  for (const name of [...values.keys()].sort()) {
    const list = values.get(name) ?? []
    const distinct = list.length === 1 ? list : [...new Set(list)].sort()
    for (const value of distinct) text += name + value
  }
  return text
}

function queryParam(url: string, name: string): string | null {
  const q = url.indexOf('?')
  if (q === -1) return null
  const hash = url.indexOf('#', q)
  return new URLSearchParams(url.slice(q + 1, hash === -1 ? undefined : hash)).get(name)
}

/**
 * Twilio: `X-Twilio-Signature` is base64 HMAC-SHA1 of the public URL followed by the form
 * parameters sorted by name. A JSON (or other) body is covered instead by `bodySHA256` in the
 * URL, the hex SHA-256 of the raw body, and the HMAC is of the URL alone. A non-form body without
 * `bodySHA256` is covered by nothing and fails.
 */
export function twilioScheme(keys: readonly KeyObject[], publicUrl: PublicUrl): Verifier {
  const compare = comparator(encodedLength('sha1', 'base64'))
  const signed = (urls: readonly string[], params: string): string[] => {
    const out: string[] = []
    for (const url of urls)
      out.push(...signatures(keys, 'sha1', 'base64', '', Buffer.from(url + params)))
    return out
  }
  return function verifyTwilio(req, body) {
    const header = headerValue(req, HEADER)
    if (header === undefined) return missingSignature
    const url = publicUrl(req)
    if (url === undefined) return mismatch
    const bodyHash = queryParam(url, 'bodySHA256')
    let params = ''
    if (bodyHash !== null) {
      const actual = createHash('sha256').update(body).digest('hex')
      if (!safeEqual(Buffer.from(actual, 'latin1'), Buffer.from(bodyHash, 'latin1'))) {
        return mismatch
      }
    } else if (isForm(req.headers['content-type'])) {
      params = formText(body)
    } else if (body.length > 0) {
      return mismatch
    }
    const candidates = [header]
    if (compare(signed(urlVariants(url), params), candidates)) return undefined
    // Only a URL that failed as seen is tried in the other spellings Twilio's validator accepts.
    const more = normalizedVariants(url)
    return more.length > 0 && compare(signed(more, params), candidates) ? undefined : mismatch
  }
}
