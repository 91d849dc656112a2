import type { SecurityScheme } from './security-scheme.js'

// Where the credentials of an app's security schemes travel, and the values a run sent there:
// what a line that shows a request (the fuzzer's curl lines, the command's output and reports)
// masks.

/** The header, query parameter and cookie names that carry credentials (header names lower-cased). */
export interface SecretPlaces {
  readonly headers: ReadonlySet<string>
  readonly query: ReadonlySet<string>
  readonly cookies: ReadonlySet<string>
  /**
   * The credential values sent in those places, in each form they take in a URL or a JSON text,
   * longest first: what `maskedText` hides wherever they appear. Only looked up, never written.
   */
  readonly values?: readonly string[]
}

/**
 * The places of every scheme's credentials: `Authorization` always (bearer, basic, OAuth 2.0 and
 * OpenID Connect tokens, and any header a user sets by hand), each API key's header, query
 * parameter or cookie, and the extra headers given (a custom scheme's, `--header`'s).
 * @example secretPlaces({ key: { type: 'apiKey', in: 'query', name: 'api_key' } }).query // Set { 'api_key' }
 */
export function secretPlaces(
  schemes: Readonly<Record<string, SecurityScheme>> | undefined,
  headers: Iterable<string> = [],
): SecretPlaces {
  const places = {
    headers: new Set(['authorization', ...[...headers].map((h) => h.toLowerCase())]),
    query: new Set<string>(),
    cookies: new Set<string>(),
  }
  for (const scheme of Object.values(schemes ?? {})) {
    if (scheme.type !== 'apiKey') continue
    if (scheme.in === 'header') places.headers.add(scheme.name.toLowerCase())
    else if (scheme.in === 'query') places.query.add(scheme.name)
    else places.cookies.add(scheme.name)
  }
  return places
}

/** How a masked credential is shown. */
export const MASK = '***'

// A value shorter than this is not looked for in free text (it stays masked in the places that
// carry it): '1', 'on' or 'en' occur in any body by chance, and replacing every occurrence would
// garble what is shown while hiding nothing a guess would not find.
const SHORTEST = 4

// Headers a run may be given that never hold a credential: their values (media types, languages,
// a client's name) stay masked where they travel but are not looked for elsewhere, where they
// would mask the Content-Type of every request and answer.
const negotiation = new Set([
  'accept',
  'accept-charset',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'content-encoding',
  'content-language',
  'content-type',
  'user-agent',
])

// Headers whose value is `<scheme> <credential>`.
const authorizations = new Set(['authorization', 'proxy-authorization'])

/**
 * A query or cookie component as the app reads it (`+` a space, percent-decoded); one that is not
 * valid percent-encoding (`%E0`) stays as it is.
 */
export function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

const pairName = (pair: string) => {
  const eq = pair.indexOf('=')
  return (eq === -1 ? pair : pair.slice(0, eq)).trim()
}
const pairValue = (pair: string) => {
  const eq = pair.indexOf('=')
  return eq === -1 ? '' : pair.slice(eq + 1).trim()
}

// Base64 text decoded as UTF-8 ('' when it is not base64). Platform APIs, not Node's Buffer.
function fromBase64(text: string): string {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(text), (c) => c.charCodeAt(0)))
  } catch {
    return ''
  }
}

// A text's UTF-8 bytes read as Latin-1, one character a byte.
const latin1Of = (text: string) =>
  Array.from(new TextEncoder().encode(text), (byte) => String.fromCharCode(byte)).join('')

// A credential header's value, and what it holds: the credential after the scheme word, and
// basic credentials decoded (`user:password`, and the password alone).
function headerValues(name: string, value: string, into: Set<string>): void {
  into.add(value)
  if (name === 'cookie') for (const pair of value.split(';')) into.add(pairValue(pair))
  if (!authorizations.has(name)) return
  const space = value.indexOf(' ')
  if (space === -1) return
  const credential = value.slice(space + 1).trim()
  into.add(credential)
  if (value.slice(0, space).toLowerCase() !== 'basic') return
  const plain = fromBase64(credential)
  const colon = plain.indexOf(':')
  if (colon === -1) return
  into.add(plain)
  into.add(plain.slice(colon + 1))
}

/** What `withValues` reads of a request: its URL and headers. */
export interface SentRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
}

// The credential values one request carries in the places `places` names.
function valuesIn(req: SentRequest, places: SecretPlaces, into: Set<string>): void {
  for (const [name, value] of Object.entries(req.headers)) {
    const lower = name.toLowerCase()
    if (places.headers.has(lower)) {
      if (!negotiation.has(lower)) headerValues(lower, value, into)
    } else if (lower === 'cookie')
      for (const pair of value.split(';'))
        if (places.cookies.has(pairName(pair))) {
          into.add(pairValue(pair))
          into.add(decoded(pairValue(pair)))
        }
  }
  const at = req.url.indexOf('?')
  if (at === -1) return
  for (const pair of req.url.slice(at + 1).split('&'))
    if (places.query.has(decoded(pairName(pair)))) {
      into.add(pairValue(pair))
      into.add(decoded(pairValue(pair)))
    }
}

// A value as it may appear in what is shown: as is, percent-encoded as a URL carries it (upper- or
// lower-case hex, `+` for a space), escaped in a JSON string, and its UTF-8 bytes read as Latin-1
// (a binary body as a report reads it).
function formsOf(value: string): string[] {
  const encoded = encodeURIComponent(value)
  return [
    value,
    encoded,
    encoded.replace(/%20/g, '+'),
    encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    encodeURI(value),
    JSON.stringify(value).slice(1, -1),
    latin1Of(value),
  ]
}

/**
 * The places with the credential values `requests` carry in them (of 4 characters or more, each
 * in its URL and JSON forms): what `maskedText` and `curlLine` then mask anywhere.
 */
export function withValues(places: SecretPlaces, requests: Iterable<SentRequest>): SecretPlaces {
  const found = new Set<string>()
  for (const req of requests) valuesIn(req, places, found)
  const forms = new Set(places.values)
  for (const value of found)
    if (value.length >= SHORTEST && !value.includes(MASK))
      for (const form of formsOf(value)) forms.add(form)
  const values = [...forms].sort((a, b) => b.length - a.length)
  return { headers: places.headers, query: places.query, cookies: places.cookies, values }
}

/**
 * Text with each credential value of `places` (see `withValues`) in it shown as `***`. Every
 * place any value takes in the text is found first and places that overlap or touch are masked
 * as one, so masking one value never leaves part of another showing (a token `AAAA1111` and a
 * key `1111BBBB` echoed as `AAAA1111BBBB`).
 */
export function maskedText(text: string, places: SecretPlaces | undefined): string {
  const spans: [number, number][] = []
  for (const value of places?.values ?? [])
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1))
      spans.push([at, at + value.length])
  if (spans.length === 0) return text
  spans.sort((a, b) => a[0] - b[0])
  let shown = text.slice(0, spans[0]![0])
  let end = spans[0]![1]
  for (const [from, to] of spans) {
    if (from <= end) end = Math.max(end, to)
    else {
      shown += MASK + text.slice(end, from)
      end = to
    }
  }
  return shown + MASK + text.slice(end)
}
