import { STATUS_CODES } from 'node:http'
import type { Exchange, FuzzReport } from '../fuzz-report.js'
import {
  baseUrlOf,
  type Masking,
  maskedRequest,
  maskedText,
  placesOf,
  type ReportOptions,
  shownAnswerHeader,
} from './mask.js'

// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), as browsers' devtools import it: the
// run's exchanges (`record: true`), bodies as text, every credential masked: in the requests, and
// in the answers too (an app may echo a token in a body, a header or a redirect's URL).

/** Options of `harReport`. */
export interface HarOptions extends ReportOptions {
  /** The creator's version in the log. @default '' */
  readonly version?: string
}

type Pair = { name: string; value: string }

const pairs = (
  headers: Readonly<Record<string, string | string[] | undefined>>,
  shown = (_n: string, v: string) => v,
): Pair[] =>
  Object.entries(headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((v) => ({
      name,
      value: shown(name, v),
    })),
  )

function queryOf(url: string): Pair[] {
  const at = url.indexOf('?')
  if (at === -1) return []
  return url
    .slice(at + 1)
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=')
      return eq === -1 ? { name: p, value: '' } : { name: p.slice(0, eq), value: p.slice(eq + 1) }
    })
}

const headerOf = (headers: Readonly<Record<string, unknown>>, name: string) => {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name)
  const value = key === undefined ? undefined : headers[key]
  return typeof value === 'string' ? value : ''
}

function entry(x: Exchange, masking: Masking, baseUrl: string) {
  const req = maskedRequest(x.request, masking)
  const body = req.body
  const text =
    body === undefined ? undefined : Buffer.isBuffer(body) ? body.toString('latin1') : body
  const answer = x.answer
  const time = answer?.ms ?? 0
  const content = maskedText(
    answer?.stream
      ? answer.stream.items.map((i) => JSON.stringify(i)).join('\n')
      : (answer?.text ?? ''),
    masking,
  )
  const headers =
    answer === undefined ? [] : pairs(answer.headers, (n, v) => shownAnswerHeader(n, v, masking))
  const answerHeader = (name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value
  return {
    startedDateTime: new Date(x.startedAt).toISOString(),
    time,
    request: {
      method: req.method,
      url: `${baseUrl}${req.url}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(req.headers),
      queryString: queryOf(req.url),
      ...(text !== undefined && {
        postData: { mimeType: headerOf(req.headers, 'content-type'), text },
      }),
      headersSize: -1,
      bodySize: body === undefined ? 0 : Buffer.byteLength(body),
    },
    response: {
      status: answer?.status ?? 0,
      statusText: answer === undefined ? '' : (STATUS_CODES[answer.status] ?? ''),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers,
      content: {
        size: Buffer.byteLength(content),
        mimeType: answerHeader('content-type') || 'x-unknown',
        text: content,
      },
      redirectURL: answerHeader('location') ?? '',
      headersSize: -1,
      bodySize: answer === undefined ? 0 : Buffer.byteLength(content),
      ...(answer === undefined && { _error: 'no answer (the request threw)' }),
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    comment: `${x.route} (${x.phase})`,
  }
}

/**
 * The exchanges of a `fuzzRoutes` run made with `record: true` as a HAR 1.2 log (JSON text),
 * which browsers' devtools open: each request and its answer, bodies as text, every credential
 * masked (`***`): `Authorization`, the app's API keys' headers, query parameters and cookies,
 * the run's `headers`, cookies the app sets, and each value the run sent in those places wherever
 * else it appears (an answer's body, headers or redirect URL that echo it; values of 4 characters
 * or more, as sent, percent-encoded or JSON-escaped).
 * @param options where the URLs point, the creator's version, more places to mask; default `{}`
 * @example await writeFile('fuzz.har', harReport(await fuzzRoutes(app, { record: true })))
 */
export function harReport(report: FuzzReport, options: HarOptions = {}): string {
  const masking = placesOf(report, options)
  const baseUrl = baseUrlOf(options)
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'shapeguard fuzz', version: options.version ?? '' },
      entries: (report.exchanges ?? []).map((x) => entry(x, masking, baseUrl)),
      comment: `seed ${report.seed}`,
    },
  }
  return `${JSON.stringify(har, null, 2)}\n`
}
