import { parseCookie } from 'cookie'
import { unsign } from 'cookie-signature'
import type { Request } from 'express'

/** A request's cookies, filed as cookie-parser files them; each record has a null prototype. */
export interface CookieJar {
  /** The cookies not signed (no `s:` prefix): what `req.cookies` holds. */
  readonly plain: Record<string, string>
  /** The signed cookies a secret verifies, without their signature: what `req.signedCookies` holds. */
  readonly signed: Record<string, string>
  /** The signed cookies (`s:`) no secret verifies, by name. */
  readonly forged: ReadonlySet<string>
}

const SIGNED = 's:'

// The cookies and signedCookies steps of one request read one jar, filed with one app's secrets
// (a sub-app's shapeguard() may have others).
const jars = new WeakMap<
  Request,
  { readonly secrets: readonly string[]; readonly jar: CookieJar }
>()

/**
 * The request's cookies, parsed from its `Cookie` header (the `cookie` package's parsing, as
 * Express's own `req.cookies` consumers expect: the first of two cookies of one name wins, a value
 * that fails to percent-decode stays as it came), read once per request. The header is the truth,
 * whatever another middleware left on `req.cookies`.
 */
export function cookieJar(req: Request, secrets: readonly string[]): CookieJar {
  const known = jars.get(req)
  if (known !== undefined && known.secrets === secrets) return known.jar
  const jar = fileCookies(req.headers.cookie, secrets)
  jars.set(req, { secrets, jar })
  return jar
}

/** The value of a cookie signed as cookie-parser signs it, if one of the secrets verifies it. */
export function unsignCookie(value: string, secrets: readonly string[]): string | undefined {
  const signed = value.slice(SIGNED.length)
  for (const secret of secrets) {
    const unsigned = unsign(signed, secret)
    if (unsigned !== false) return unsigned
  }
  return undefined
}

function fileCookies(header: unknown, secrets: readonly string[]): CookieJar {
  const plain: Record<string, string> = Object.create(null)
  const signed: Record<string, string> = Object.create(null)
  const forged = new Set<string>()
  if (typeof header !== 'string') return { plain, signed, forged }
  const parsed = parseCookie(header)
  for (const name in parsed) {
    const value = parsed[name]
    if (value === undefined) continue
    // As cookie-parser: every `s:` value leaves the plain cookies, verified or not.
    if (!value.startsWith(SIGNED)) {
      plain[name] = value
      continue
    }
    const unsigned = unsignCookie(value, secrets)
    if (unsigned === undefined) forged.add(name)
    else signed[name] = unsigned
  }
  return { plain, signed, forged }
}
