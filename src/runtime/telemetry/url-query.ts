import type { SpanLike } from './otel-api.js'

/** Whether a query parameter, by its decoded name, carries a credential. */
export type SecretParam = (name: string) => boolean

// A parameter: at the start, or after `?` or `&`, a name up to `=`, its value up to the next
// `?`, `&` or `#` (a `?` inside a value ends it too: what follows is masked if it looks secret,
// never shown because it was not parsed as a parameter). Linear: a match starts only there.
const PARAM = /(^|[?&])([^?&=#]+)=([^?&#]+)/g

// `api%5Fkey`, `api+key` and `api_key[]` are the parameter `api_key` (or `api key`) to a parser.
function nameOf(raw: string): string {
  let name = raw.replaceAll('+', ' ')
  try {
    name = decodeURIComponent(name)
  } catch {
    // Not valid percent-encoding: the raw name is what a parser would keep.
  }
  const bracket = name.indexOf('[')
  return bracket === -1 ? name : name.slice(0, bracket)
}

/**
 * `text` (a URL, a path with its query, or a query alone) with the value of every parameter
 * `isSecret` names replaced by `mark`: `/items?api_key=[REDACTED]&page=2`.
 */
export function maskQuery(text: string, isSecret: SecretParam, mark: string): string {
  if (!text.includes('=')) return text
  return text.replace(PARAM, (whole, lead: string, name: string) =>
    isSecret(nameOf(name)) ? `${lead}${name}=${mark}` : whole,
  )
}

// Where the HTTP instrumentations put the query: stable (`url.query`, `url.full`) and older
// (`http.target`, `http.url`) semantic conventions.
const URL_ATTRIBUTES = ['url.query', 'url.full', 'http.target', 'http.url'] as const

/**
 * Masks credentials in the URL attributes the HTTP instrumentation gave the request's span (it
 * masks only a few signature parameters of its own), with its own mark, `REDACTED`. Read from the
 * span's `attributes` (the SDK's spans have them): a span without them is left as it is.
 */
export function maskSpanUrl(span: SpanLike | undefined, isSecret: SecretParam): void {
  if (span === undefined) return
  try {
    if (!span.isRecording()) return
    const attributes = (span as { attributes?: unknown }).attributes
    if (attributes === null || typeof attributes !== 'object') return
    for (const key of URL_ATTRIBUTES) {
      const value = (attributes as Record<string, unknown>)[key]
      if (typeof value !== 'string') continue
      const masked = maskQuery(value, isSecret, 'REDACTED')
      if (masked !== value) span.setAttribute(key, masked)
    }
  } catch {
    // A span of another tracer that throws fails nothing: the request is not its business.
  }
}
