import { subject } from './check-option.js'
import { optionError } from './error-codes.js'
import { isPlainObject } from './is-object.js'

/** The Content-Type of every error answer in the `problem+json` format (RFC 9457). */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8'

/** One validation issue of a problem's `errors` member. */
export interface ProblemIssue {
  /** The dotted path inside the request part, or the part itself for a root-level issue. */
  readonly field: string
  readonly message: string
  /** The schema library's issue code, only with `validation.exposeSchemaCodes`. */
  readonly code?: string
  /** The request part the field is in; absent for issues made by `AppError.validation`. */
  readonly in?: 'body' | 'query' | 'params' | 'headers'
}

/**
 * An error answer in the `problem+json` format (RFC 9457): the five members of the RFC, then the
 * extension members `code`, `requestId`, `errors` (validation issues) and the error's details.
 */
export interface ProblemDetails {
  /** `about:blank`, or `errors.problemTypeBase` followed by the code (`…/validation-error`). */
  readonly type: string
  /** The status's reason phrase (`Unprocessable Content`). */
  readonly title: string
  readonly status: number
  /** The error's message (the fallback message for a programmer error in production). */
  readonly detail: string
  /** The request's path, without its query string; absent when it is not a plain path. */
  readonly instance?: string
  /** The error code, stable and safe to match on (`VALIDATION_ERROR`). */
  readonly code: string
  /** The request ID, unless request IDs are disabled. */
  readonly requestId?: string
  /** The validation issues of a `VALIDATION_ERROR`. */
  readonly errors?: readonly ProblemIssue[]
  /** The error's details: an object's members each on their own, any other value as `details`. */
  readonly [extension: string]: unknown
}

/** One error answer, as the error middleware or `res.fail()` is about to send it. */
export interface ProblemSource {
  readonly code: string
  readonly status: number
  /** What the client may read: the fallback message for a hidden programmer error. */
  readonly message: string
  /** What the client may read: `null` when there are none, or they are hidden. */
  readonly details: unknown
  /** The request part a validation error's issues are in. */
  readonly part?: ProblemIssue['in'] | undefined
  /** The request ID; the empty string (request IDs disabled) is left out. */
  readonly requestId?: string | undefined
  /** The request's path as it arrived, without its query string (`instance`). */
  readonly path?: string | undefined
}

// The reason phrases of IANA's HTTP status code registry for 4xx and 5xx (RFC 9110 section 15,
// RFC 6585, RFC 7725, RFC 8470, RFC 4918 and RFC 5842). 418 is registered as unused.
const phrases: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  506: 'Variant Also Negotiates',
  507: 'Insufficient Storage',
  508: 'Loop Detected',
  511: 'Network Authentication Required',
}

/**
 * The `title` of a problem with this status: its registered reason phrase, or, for a status with
 * none, that of its class's x00 (a client treats an unknown status as x00 of its class).
 */
export function problemTitle(status: number): string {
  return phrases[status] ?? (status >= 500 ? phrases[500]! : phrases[400]!)
}

/**
 * The `type` of a problem: `about:blank` (no meaning beyond the status and the `code` member),
 * or the base followed by the code in lower case with dashes (`VALIDATION_ERROR` →
 * `<base>validation-error`), percent-encoded.
 */
export function problemType(code: string, base: string | undefined): string {
  if (base === undefined) return 'about:blank'
  return base + encodeURIComponent(code.toLowerCase().replaceAll('_', '-'))
}

// A URI: a scheme, then URI characters only, ending where a code can follow (`/`, `#` or `:`).
// Run on the option's value only, once, at mount time.
const typeBase = /^[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*[/#:]$/

/**
 * Checks `errors.problemTypeBase`: an absolute URI ending in `/`, `#` or `:`
 * (`https://api.example.com/problems/`, `tag:example.com,2025:`).
 */
export function checkProblemTypeBase(base: unknown, option: string): string | undefined {
  if (base === undefined) return undefined
  if (typeof base !== 'string' || !typeBase.test(base)) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: ${subject(option)} must be an absolute URI ending in '/', '#' or ':' (e.g. 'https://api.example.com/problems/')`,
    )
  }
  return base
}

// RFC 3986's pchar less '%' (kept only before two hex digits), and '/': what a path may hold as is.
const kept = new Uint8Array(128)
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/") {
  kept[c.charCodeAt(0)] = 1
}

const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)
const encoder = new TextEncoder()

function escaped(ch: string): string {
  let out = ''
  // A character Node's parser gave as one byte (latin1) is that byte; any other, its UTF-8.
  const bytes = ch.charCodeAt(0) < 256 ? [ch.charCodeAt(0)] : encoder.encode(ch)
  for (const b of bytes) out += `%${b < 16 ? '0' : ''}${b.toString(16).toUpperCase()}`
  return out
}

/**
 * The `instance` of a problem: the request's path as an absolute-path URI reference, every
 * character a path may not hold percent-encoded (an existing `%XX` is kept). A path that is not
 * one (`*`, an absolute URL, or `//…`, which a client would resolve to another host) gives none.
 */
export function problemInstance(path: string | undefined): string | undefined {
  if (path === undefined || path.charCodeAt(0) !== 47 || path.charCodeAt(1) === 47) return undefined
  let out = ''
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i)
    if (c < 128 && kept[c] === 1) out += path[i]
    else if (c === 37 && isHex(path.charCodeAt(i + 1)) && isHex(path.charCodeAt(i + 2))) out += '%'
    else out += escaped(path[i]!)
  }
  return out
}

/** Members a problem already has: details holding one of them are sent whole as `details`. */
export const problemMembers: ReadonlySet<string> = new Set([
  'type',
  'title',
  'status',
  'detail',
  'instance',
  'code',
  'requestId',
  'errors',
  'details',
  '__proto__',
  'toJSON',
])

const isIssue = (value: unknown): value is ProblemIssue =>
  isPlainObject(value) && typeof value.field === 'string' && typeof value.message === 'string'

// A VALIDATION_ERROR's details as a list of issues (one issue, or several), else undefined.
function issuesOf(source: ProblemSource): readonly ProblemIssue[] | undefined {
  if (source.code !== 'VALIDATION_ERROR') return undefined
  const { details } = source
  const list = Array.isArray(details) ? details : [details]
  if (!list.every(isIssue)) return undefined
  const part = source.part
  return Object.freeze(list.map((issue) => Object.freeze(part ? { ...issue, in: part } : issue)))
}

/**
 * The RFC 9457 problem object of one error answer: `type`, `title`, `status`, `detail`,
 * `instance`, then `code`, `requestId` and, for a `VALIDATION_ERROR`, its issues as `errors`
 * (each with the request part as `in`; an empty list when its details are not issues). Other details follow as extension members when they are
 * a plain object none of whose keys is a member already (`retryAfter`, `allowed`, your own);
 * any other value (a string, an array, an object with a `status` key) is sent whole as
 * `details`. Frozen, like the envelope.
 * @param typeBase `errors.problemTypeBase`; `about:blank` when undefined
 */
export function problemDetails(
  source: ProblemSource,
  typeBase?: string | undefined,
): Readonly<ProblemDetails> {
  const out: Record<string, unknown> = {
    type: problemType(source.code, typeBase),
    title: problemTitle(source.status),
    status: source.status,
    detail: source.message,
  }
  const instance = problemInstance(source.path)
  if (instance !== undefined) out.instance = instance
  out.code = source.code
  if (source.requestId) out.requestId = source.requestId
  const { details } = source
  const issues = issuesOf(source)
  // A VALIDATION_ERROR always has `errors`, as its documented schema says: empty when the details
  // raised with it are not issues (they then follow as the other details do).
  if (source.code === 'VALIDATION_ERROR') out.errors = issues ?? Object.freeze([])
  if (issues !== undefined || details === null || details === undefined) {
    // nothing to add
  } else if (
    isPlainObject(details) &&
    !Object.keys(details).some((key) => problemMembers.has(key))
  ) {
    for (const key of Object.keys(details)) out[key] = details[key]
  } else out.details = details
  return Object.freeze(out) as ProblemDetails
}

/**
 * The fixed 500 problem sent when building the real answer failed: needs nothing that could fail
 * again (no request, no details).
 */
export function problemFallback(typeBase?: string | undefined): string {
  return JSON.stringify(
    problemDetails(
      { code: 'INTERNAL_ERROR', status: 500, message: 'Something went wrong', details: null },
      typeBase,
    ),
  )
}
