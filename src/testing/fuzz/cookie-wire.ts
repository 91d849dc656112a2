import { sign } from 'cookie-signature'
import { isPlainObject } from '../../shared/is-object.js'
import { scalar, type Wire } from './wire.js'

/** The secret the wrong-signature cases sign with: no app's. */
export const WRONG_SECRET = 'shapeguard-fuzz-not-the-secret'

const no = { ok: false } as const

// A cookie name as RFC 6265 spells a token, and not one an object would take for its prototype.
const cookieName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const reserved = new Set(['__proto__', 'constructor', 'prototype'])

/** A value signed as cookie-parser signs it: `s:` and cookie-signature's `sign`. */
export const signCookie = (value: string, secret: string): string => `s:${sign(value, secret)}`

/**
 * A cookie schema's value as `name=value` pairs of a Cookie header, each value percent-encoded as
 * `cookie.serialize` writes it (the server decodes it back exactly), signed when `secret` is
 * given; not representable: a nested value, an odd name, a lone surrogate, or an unsigned value
 * that starts with `s:` (the server files it with the signed cookies).
 */
export function cookiesWire(value: unknown, secret?: string): Wire<string[]> {
  if (value === undefined) return { ok: true, wire: [] }
  if (!isPlainObject(value)) return no
  const pairs: string[] = []
  for (const [name, v] of Object.entries(value)) {
    if (v === undefined) continue
    const s = scalar(v)
    if (s === undefined || !cookieName.test(name) || reserved.has(name)) return no
    if (secret === undefined && s.startsWith('s:')) return no
    try {
      pairs.push(`${name}=${encodeURIComponent(secret === undefined ? s : signCookie(s, secret))}`)
    } catch {
      return no
    }
  }
  return { ok: true, wire: pairs }
}

/** What the server hands a cookie schema for the value sent: each cookie's text. */
export function cookiesFromWire(value: unknown): Record<string, string> {
  const out: Record<string, string> = Object.create(null)
  for (const [name, v] of Object.entries(value ?? {})) if (v !== undefined) out[name] = scalar(v)!
  return out
}

/** What an echo of a hostile cookie shows: no schema makes it, so an answer holding it echoed the header. */
export const COOKIE_MARK = 'sgFuzzCookieEcho'

/**
 * Hostile additions to a Cookie header, by what they try, smallest first (a failure shrinks to
 * the first that breaks it); each carries `COOKIE_MARK`.
 */
export const hostileCookies: Readonly<Record<string, () => string[]>> = {
  'cookie-proto': () => [`__proto__=${COOKIE_MARK}`, `constructor=${COOKIE_MARK}`],
  'cookie-malformed': () => [
    `=${COOKIE_MARK}`,
    COOKIE_MARK,
    '',
    `a==${COOKIE_MARK}`,
    `"q"=${COOKIE_MARK}`,
  ],
  'cookie-percent': () => [`sg_fuzz_pct=%E0%A4%A${COOKIE_MARK}%zz`, 'sg_fuzz_pct2=%'],
  // 8 KB in one cookie: under Node's 16 KiB of headers, so the app answers, not Node's 431.
  'cookie-8kb': () => [`sg_fuzz_big=${COOKIE_MARK.repeat(Math.ceil(8192 / COOKIE_MARK.length))}`],
  // 1,000 cookies, short enough to stay under the same bound.
  'cookie-1000': () => [
    ...Array.from({ length: 999 }, (_, i) => `k${i}=${i}`),
    `k999=${COOKIE_MARK}`,
  ],
}
