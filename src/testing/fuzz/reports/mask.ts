import { type SecretPlaces, secretPlaces } from '../../../shared/credential-places.js'
import { curlLine, maskedUrl, shownHeader } from '../../../shared/curl-line.js'
import type { FuzzFailure, FuzzReport } from '../fuzz-report.js'
import type { FuzzRequest } from '../fuzz-request.js'

// What a report file may show of a request: every credential masked, as the curl lines are.

/** Options of the report writers (`junitReport`, `harReport`, `jsonReport`). */
export interface ReportOptions {
  /** Where the requests are shown to go (the run's `baseUrl`). @default 'http://localhost:3000' */
  readonly baseUrl?: string
  /**
   * More places credentials travel, masked besides the run's own (`Authorization`, the app's
   * API keys, the run's `headers`): header, query parameter and cookie names.
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

// An answer's headers that carry the app's own credentials: a session cookie it sets.
const answerSecrets = new Set(['set-cookie', 'proxy-authenticate-info'])

/** Every place a report masks: the run's (`report.secrets`), the options', `Proxy-Authorization`. */
export function placesOf(report: FuzzReport, options: ReportOptions = {}): SecretPlaces {
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
  return places
}

/** A request with each credential's value shown as `***` (the URL's, the headers'). */
export function maskedRequest(req: FuzzRequest, places: SecretPlaces): FuzzRequest {
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => [name, shownHeader(name, value, places)]),
  )
  return { ...req, url: maskedUrl(req.url, places.query), headers }
}

/** An answer's header value as a report shows it: a cookie the app sets, masked. */
export const shownAnswerHeader = (name: string, value: string): string =>
  answerSecrets.has(name.toLowerCase()) ? value.replace(/=[^;]*/, '=***') : value

/**
 * A failure's curl lines (a stateful failure's, one a step), written again from its requests with
 * every place `places` names masked: the run's credentials and the report's extra names.
 */
export function maskedCurl(f: FuzzFailure, places: SecretPlaces, options: ReportOptions): string {
  const base = baseUrlOf(options)
  return (f.sequence ?? [f.request])
    .map((req) => curlLine(req.method, `${base}${req.url}`, req.headers, req.body, places))
    .join('\n')
}

/** Where a report's requests are shown to go, without a trailing slash. */
export const baseUrlOf = (options: ReportOptions): string =>
  (options.baseUrl ?? 'http://localhost:3000').replace(/\/$/, '')
