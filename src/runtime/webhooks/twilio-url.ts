import { parse, stringify } from 'node:querystring'
import type { Request } from 'express'

/** How the public URL of a Twilio request is found. */
export type PublicUrl = (req: Request) => string | undefined

type TrustFn = (address: string | undefined, hop: number) => boolean

const isDigit = (c: number) => c >= 48 && c <= 57
const isNameChar = (c: number) =>
  isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 46
const isHex = (c: number) => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)

/**
 * Whether `text` is a plain authority: a host name or IPv4 address, or a bracketed IPv6 address,
 * then an optional `:port`. Anything else (a `/` in a spoofed Host header, say) would move part of
 * the signed path into the host, so a request signed for one route could pass on another.
 */
export function isAuthority(text: string): boolean {
  let i = 0
  if (text.charCodeAt(0) === 91) {
    i = 1
    while (i < text.length && (isHex(text.charCodeAt(i)) || text[i] === ':' || text[i] === '.')) i++
    if (i === 1 || text.charCodeAt(i) !== 93) return false
    i++
  } else {
    while (i < text.length && isNameChar(text.charCodeAt(i))) i++
    if (i === 0) return false
  }
  if (i === text.length) return true
  if (text[i] !== ':' || i === text.length - 1 || text.length - i - 1 > 5) return false
  for (let j = i + 1; j < text.length; j++) if (!isDigit(text.charCodeAt(j))) return false
  return true
}

// As Express 5's req.host: X-Forwarded-Host (its first value) only when the app trusts the
// proxy, else Host; Express 4's req.hostname drops the port, so it is read here for both. A value
// that is not a plain authority gives no URL, and so a mismatch.
function requestHost(req: Request): string | undefined {
  const trust = req.app?.get('trust proxy fn') as TrustFn | undefined
  const forwarded = req.headers['x-forwarded-host']
  let host = req.headers.host
  if (typeof forwarded === 'string' && forwarded !== '' && trust?.(req.socket.remoteAddress, 0)) {
    const comma = forwarded.indexOf(',')
    host = (comma === -1 ? forwarded : forwarded.slice(0, comma)).trim()
  }
  return typeof host === 'string' && isAuthority(host) ? host : undefined
}

/** The URL Twilio called, from the request: `req.protocol` and host honour `trust proxy`. */
export function requestUrl(req: Request): string | undefined {
  const host = requestHost(req)
  return host === undefined ? undefined : `${req.protocol}://${host}${req.originalUrl}`
}

/** A public origin (checked at creation) followed by the request's path and query. */
export function originUrl(origin: string): PublicUrl {
  const base = origin.endsWith('/') ? origin.slice(0, -1) : origin
  return (req) => `${base}${req.originalUrl}`
}

// Where the port of `scheme://host[:port]/…` starts and the authority ends, without parsing
// (which would re-encode the path Twilio signed).
function authority(url: string): { start: number; end: number; port: number } | undefined {
  const schemeEnd = url.indexOf('://')
  if (schemeEnd <= 0) return undefined
  const start = schemeEnd + 3
  let end = url.length
  for (const mark of ['/', '?', '#']) {
    const at = url.indexOf(mark, start)
    if (at !== -1 && at < end) end = at
  }
  const bracket = url.lastIndexOf(']', end)
  const colon = url.indexOf(':', Math.max(start, bracket + 1))
  return { start, end, port: colon !== -1 && colon < end ? colon : -1 }
}

/**
 * The URL as given, and as Twilio's own validator also tries it: without its port, and with the
 * scheme's default port added.
 */
export function urlVariants(url: string): string[] {
  const parts = authority(url)
  if (parts === undefined) return [url]
  if (parts.port !== -1) return [url, url.slice(0, parts.port) + url.slice(parts.end)]
  const port = url.slice(0, parts.start).toLowerCase() === 'https://' ? ':443' : ':80'
  return [url, url.slice(0, parts.end) + port + url.slice(parts.end)]
}

// The query re-encoded as Node's legacy querystring module writes it.
function legacyQuery(url: string): string {
  const q = url.indexOf('?')
  if (q === -1 || q === url.length - 1) return url
  return `${url.slice(0, q + 1)}${stringify(parse(url.slice(q + 1)))}`
}

/**
 * The further spellings twilio-node's validator accepts when the URL as seen fails: the URL as
 * WHATWG `URL` normalises it (`'` in the query becomes `%27`), with and without the default port,
 * and each with its query re-encoded by Node's legacy `querystring`.
 */
export function normalizedVariants(url: string): string[] {
  let normalized: string
  try {
    normalized = new URL(url).toString()
  } catch {
    return []
  }
  const seen = new Set(urlVariants(url))
  const out: string[] = []
  for (const base of urlVariants(normalized)) {
    for (const variant of [base, legacyQuery(base)]) {
      if (!seen.has(variant)) out.push(variant)
      seen.add(variant)
    }
  }
  return out
}
