import { parse, stringify } from 'node:querystring'
import type { Request } from 'express'

/** How the public URL of a Twilio request is found. */
export type PublicUrl = (req: Request) => string | undefined

type TrustFn = (address: string | undefined, hop: number) => boolean

// As Express 5's req.host: X-Forwarded-Host (its first value) only when the app trusts the
// proxy, else Host; Express 4's req.hostname drops the port, so it is read here for both.
function requestHost(req: Request): string | undefined {
  const trust = req.app?.get('trust proxy fn') as TrustFn | undefined
  const forwarded = req.headers['x-forwarded-host']
  if (typeof forwarded === 'string' && forwarded !== '' && trust?.(req.socket.remoteAddress, 0)) {
    const comma = forwarded.indexOf(',')
    return (comma === -1 ? forwarded : forwarded.slice(0, comma)).trim()
  }
  const host = req.headers.host
  return typeof host === 'string' && host !== '' ? host : undefined
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
