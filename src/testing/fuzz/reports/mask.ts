import {
  maskedText,
  type SecretPlaces,
  secretPlaces,
  withValues,
} from '../../../shared/credential-places.js'
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

/** The places a report masks, with the credential values the run's requests carried there. */
export type Masking = SecretPlaces & { readonly values: readonly string[] }

export { maskedText }

const MASK = '***'

// An answer's headers that carry the app's own credentials: a session cookie it sets.
const answerSecrets = new Set(['set-cookie', 'proxy-authenticate-info'])
// An answer's headers holding a URL, whose credential query parameters are masked by name.
const answerUrls = new Set(['location', 'content-location', 'refresh'])

// Every request a report holds: each failure's (a stateful one's whole sequence), each exchange's.
function* requestsOf(report: FuzzReport): Iterable<FuzzRequest> {
  for (const f of report.failures) yield* f.sequence ?? [f.request]
  for (const x of report.exchanges ?? []) yield x.request
}

/**
 * Every place a report masks (the run's `report.secrets`, the options', `Proxy-Authorization`)
 * and the values the report's requests carry there (never written, only looked for).
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
  return withValues(places, requestsOf(report)) as Masking
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
 * every credential masked: the places `masking` names, and the run's values anywhere else.
 */
export function maskedCurl(f: FuzzFailure, masking: Masking, options: ReportOptions): string {
  const base = baseUrlOf(options)
  return (f.sequence ?? [f.request])
    .map((req) => curlLine(req.method, `${base}${req.url}`, req.headers, req.body, masking))
    .join('\n')
}

/** Where a report's requests are shown to go, without a trailing slash. */
export const baseUrlOf = (options: ReportOptions): string =>
  (options.baseUrl ?? 'http://localhost:3000').replace(/\/$/, '')
