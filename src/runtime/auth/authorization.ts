import type { Request } from 'express'

// What every reader of credentials shares: its two answers besides a credential, the length no
// credential may pass, and the `Authorization` header's parameter of one auth-scheme.

/**
 * The longest credential (token, API key, basic credentials as sent) a verifier is given: a longer
 * one is refused (401) before any verifier runs. A multi-kilobyte token (a "token bomb") would
 * otherwise reach a JWT library's parser or a database lookup on every request; 8,192 characters
 * hold any real JWT, API key or password, and Node's default header limit is 16 KB.
 */
export const MAX_CREDENTIAL_LENGTH = 8192

/** No credentials of the scheme were sent: an alternative of only such schemes is skipped. */
export const MISSING: unique symbol = Symbol('shapeguard.credentials.missing') as never

/** Credentials were sent but cannot be read (malformed, too long): refused without a verifier. */
export const REFUSED: unique symbol = Symbol('shapeguard.credentials.refused') as never

/** What a reader answers: the credential, or why there is none. */
export type Read<C> = C | typeof MISSING | typeof REFUSED

const SP = 32
const HTAB = 9

/**
 * The credentials of `Authorization: <scheme> <credentials>` when its auth-scheme is `scheme`
 * (case-insensitive, RFC 9110): MISSING without the header, for another scheme or for the scheme
 * alone (`Bearer`, `Bearer   `); REFUSED when they hold a space (token68 holds none) or are longer
 * than MAX_CREDENTIAL_LENGTH.
 * @param scheme the auth-scheme in lower case, letters only (`bearer`, `basic`)
 */
export function authorizationParam(header: string | undefined, scheme: string): Read<string> {
  if (header === undefined) return MISSING
  const n = scheme.length
  if (header.length <= n) return MISSING
  // Letters only: `| 0x20` lower-cases one without allocating a copy of the header.
  for (let i = 0; i < n; i++)
    if ((header.charCodeAt(i) | 0x20) !== scheme.charCodeAt(i)) return MISSING
  let start = n
  let c = header.charCodeAt(start)
  if (c !== SP && c !== HTAB) return MISSING
  while (c === SP || c === HTAB) c = header.charCodeAt(++start)
  // Node trims a header's ends; a request made another way may not have been.
  if (start === header.length) return MISSING
  if (header.length - start > MAX_CREDENTIAL_LENGTH) return REFUSED
  const credentials = header.slice(start)
  if (credentials.indexOf(' ') !== -1 || credentials.indexOf('\t') !== -1) return REFUSED
  return credentials
}

const NAME = 'authorization'

// In any case, without lower-casing a copy per request (every letter: `| 0x20` lower-cases it).
function isAuthorization(name: string): boolean {
  if (name.length !== NAME.length) return false
  for (let i = 0; i < NAME.length; i++)
    if ((name.charCodeAt(i) | 0x20) !== NAME.charCodeAt(i)) return false
  return true
}

/**
 * Whether the request came with two `Authorization` headers or more: Node keeps the first in
 * `req.headers` and drops the others, so which credentials were meant is unknown.
 */
export function sentTwice(req: Request): boolean {
  const raw: readonly string[] | undefined = req.rawHeaders
  if (raw === undefined) return false
  let seen = false
  for (let i = 0; i < raw.length; i += 2) {
    if (isAuthorization(raw[i]!)) {
      if (seen) return true
      seen = true
    }
  }
  return false
}
