import { type SecretPlaces, secretPlaces } from '../../../shared/credential-places.js'
import { curlLine, maskedUrl, shownHeader } from '../../../shared/curl-line.js'
import type { FuzzFailure, FuzzReport } from '../fuzz-report.js'
import type { FuzzRequest } from '../fuzz-request.js'

// What a report file may show of the run: every credential masked, as the curl lines are: the
// places that carry one (named), and each value the run sent there wherever else it turns up (an
// answer that echoes a token in its body, a header or a redirect's query string, a request body).

/** Options of the report writers (`junitReport`, `harReport`, `jsonReport`). */
export interface ReportOptions {
  /** Where the requests are shown to go (the run's `baseUrl`). @default 'http://localhost:3000' */
  readonly baseUrl?: string
  /**
   * More places credentials travel, masked besides the run's own (`Authorization`, the app's
   * API keys, the run's `headers`): header, query parameter and cookie names. The values the
   * run's requests carry in each place are masked wherever they appear in the file too.
   */
  readonly secrets?: {
    /** Header names whose values are masked. @default [] */
    readonly headers?: readonly string[]
    /** Query parameter names whose values are masked. @default [] */
    readonly query?: readonly string[]
    /** Cookie names whose values are masked. @default [] */
    readonly cookies?: readonly string[]
  }
}

/**
 * The places a report masks, and the credential values the run's requests carried there, each in
 * the forms it takes in a URL or a JSON text, longest first: what `maskedText` hides anywhere.
 * Never written: the writers only look the values up.
 */
export interface Masking extends SecretPlaces {
  readonly values: readonly string[]
}

const MASK = '***'

// A value shorter than this is not looked for in free text (it stays masked in the places that
// carry it): '1', 'on' or 'en' occur in any body by chance, and replacing every occurrence would
// garble the report while hiding nothing a guess would not find.
const SHORTEST = 4

// An answer's headers that carry the app's own credentials: a session cookie it sets.
const answerSecrets = new Set(['set-cookie', 'proxy-authenticate-info'])
// An answer's headers holding a URL, whose credential query parameters are masked by name.
const answerUrls = new Set(['location', 'content-location', 'refresh'])
// Headers whose value is `<scheme> <credential>`.
const authorizations = new Set(['authorization', 'proxy-authorization'])

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

const nameOf = (pair: string) => {
  const eq = pair.indexOf('=')
  return (eq === -1 ? pair : pair.slice(0, eq)).trim()
}
const pairValue = (pair: string) => {
  const eq = pair.indexOf('=')
  return eq === -1 ? '' : pair.slice(eq + 1).trim()
}

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
  const plain = Buffer.from(credential, 'base64').toString('utf8')
  const colon = plain.indexOf(':')
  if (colon === -1) return
  into.add(plain)
  into.add(plain.slice(colon + 1))
}

/** The credential values one request carries in the places `places` names. */
function valuesIn(req: FuzzRequest, places: SecretPlaces, into: Set<string>): void {
  for (const [name, value] of Object.entries(req.headers)) {
    const lower = name.toLowerCase()
    if (places.headers.has(lower)) headerValues(lower, value, into)
    else if (lower === 'cookie')
      for (const pair of value.split(';'))
        if (places.cookies.has(nameOf(pair))) {
          into.add(pairValue(pair))
          into.add(decoded(pairValue(pair)))
        }
  }
  const at = req.url.indexOf('?')
  if (at === -1) return
  for (const pair of req.url.slice(at + 1).split('&'))
    if (places.query.has(decoded(nameOf(pair)))) {
      into.add(pairValue(pair))
      into.add(decoded(pairValue(pair)))
    }
}

// A value as it may appear in what a report writes: as is, percent-encoded as a URL carries it
// (upper- or lower-case hex, `+` for a space), escaped in a JSON string, and its UTF-8 bytes read
// as Latin-1 (a binary body as the report reads it).
function formsOf(value: string): string[] {
  const encoded = encodeURIComponent(value)
  return [
    value,
    encoded,
    encoded.replace(/%20/g, '+'),
    encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    encodeURI(value),
    JSON.stringify(value).slice(1, -1),
    Buffer.from(value, 'utf8').toString('latin1'),
  ]
}

// Every request a report holds: each failure's (a stateful one's whole sequence), each exchange's.
function* requestsOf(report: FuzzReport): Iterable<FuzzRequest> {
  for (const f of report.failures) yield* f.sequence ?? [f.request]
  for (const x of report.exchanges ?? []) yield x.request
}

/**
 * Every place a report masks (the run's `report.secrets`, the options', `Proxy-Authorization`)
 * and the values the report's requests carry there.
 */
export function placesOf(report: FuzzReport, options: ReportOptions = {}): Masking {
  const run = report.secrets
  const extra = options.secrets
  const places = secretPlaces(undefined, [
    'proxy-authorization',
    ...(run?.headers ?? []),
    ...(extra?.headers ?? []),
  ])
  for (const name of [...(run?.query ?? []), ...(extra?.query ?? [])])
    (places.query as Set<string>).add(name)
  for (const name of [...(run?.cookies ?? []), ...(extra?.cookies ?? [])])
    (places.cookies as Set<string>).add(name)
  const found = new Set<string>()
  for (const req of requestsOf(report)) valuesIn(req, places, found)
  const forms = new Set<string>()
  for (const value of found)
    if (value.length >= SHORTEST && !value.includes(MASK))
      for (const form of formsOf(value)) forms.add(form)
  const values = [...forms].sort((a, b) => b.length - a.length)
  return { ...places, values }
}

/** Text a report writes, each of the run's credential values in it shown as `***`. */
export function maskedText(text: string, masking: Masking): string {
  let shown = text
  for (const value of masking.values)
    if (shown.includes(value)) shown = shown.replaceAll(value, MASK)
  return shown
}

function maskedBody(body: FuzzRequest['body'], masking: Masking): FuzzRequest['body'] {
  if (body === undefined || masking.values.length === 0) return body
  if (typeof body === 'string') return maskedText(body, masking)
  const text = body.toString('latin1')
  const shown = maskedText(text, masking)
  return shown === text ? body : Buffer.from(shown, 'latin1')
}

/**
 * A request with each credential shown as `***`: the values of the places that carry one (the
 * URL's, the headers'), and the run's credential values anywhere in its URL, headers and body.
 */
export function maskedRequest(req: FuzzRequest, masking: Masking): FuzzRequest {
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => [
      name,
      maskedText(shownHeader(name, value, masking), masking),
    ]),
  )
  const url = maskedText(maskedUrl(req.url, masking.query), masking)
  return { ...req, url, headers, body: maskedBody(req.body, masking) }
}

/**
 * An answer's header value as a report shows it: a credential header's and a cookie the app
 * sets masked, a URL's credential query parameters masked, the run's credential values masked.
 */
export function shownAnswerHeader(name: string, value: string, masking: Masking): string {
  const lower = name.toLowerCase()
  const named = masking.headers.has(lower)
    ? shownHeader(lower, value, masking)
    : answerSecrets.has(lower)
      ? value.replace(/=[^;]*/, `=${MASK}`)
      : answerUrls.has(lower)
        ? maskedUrl(value, masking.query)
        : value
  return maskedText(named, masking)
}

/**
 * A failure's curl lines (a stateful failure's, one a step), written again from its requests with
 * every credential masked: the places `places` names, and the run's values anywhere else.
 */
export function maskedCurl(f: FuzzFailure, masking: Masking, options: ReportOptions): string {
  const base = baseUrlOf(options)
  return (f.sequence ?? [f.request])
    .map((req) => maskedRequest(req, masking))
    .map((req) => curlLine(req.method, `${base}${req.url}`, req.headers, req.body, masking))
    .join('\n')
}

/** Where a report's requests are shown to go, without a trailing slash. */
export const baseUrlOf = (options: ReportOptions): string =>
  (options.baseUrl ?? 'http://localhost:3000').replace(/\/$/, '')
