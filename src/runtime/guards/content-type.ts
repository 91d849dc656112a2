import type { Request } from 'express'
import { type AppError, raise } from '../core/app-error.js'
import { hasBodyOnWire } from '../core/has-body.js'
import { contentTypesAllowed } from '../core/media-types.js'
import { bodyRead } from '../host/body-read.js'

// The media types the body parsers understand, by what parses them: Express's own parsers
// (`express.json`, `express.urlencoded`) or a multipart parser inside the route (multer, busboy).
const json = 1
const plusJson = 2
const form = 3
const multipart = 4
type Kind = 0 | typeof json | typeof plusJson | typeof form | typeof multipart

const exact = new Map<string, Kind>([
  ['application/json', json],
  ['application/x-www-form-urlencoded', form],
  ['multipart/form-data', multipart],
])

const send = 'send application/json, application/x-www-form-urlencoded or multipart/form-data'

/** A body of a kind a body parser reads, which none read: the server's mistake, not the client's. */
export interface Unparsed {
  /** The media type (a constant, never the request's header), as the answer names it. */
  readonly type: string
  /** The parser that was not mounted, as the developer's warning names it. */
  readonly parser: string
  readonly message: string
  /** The allowed types less this kind's: the client is not sent back to the type it sent. */
  readonly allowed: readonly string[]
}

function unparsedKind(type: string, parser: string, message: string, unread: string[]): Unparsed {
  const allowed = Object.freeze(contentTypesAllowed.filter((t) => !unread.includes(t)))
  return Object.freeze({ type, parser, message, allowed })
}

const unparsed: Readonly<Record<number, Unparsed>> = {
  [json]: unparsedKind(
    'application/json',
    'app.use(express.json())',
    'This API does not parse application/json bodies on this route',
    ['application/json', 'application/*+json'],
  ),
  [plusJson]: unparsedKind(
    'application/*+json',
    "app.use(express.json({ type: ['application/json', 'application/*+json'] }))",
    'This API does not parse this +json media type on this route',
    ['application/*+json'],
  ),
  [form]: unparsedKind(
    'application/x-www-form-urlencoded',
    'app.use(express.urlencoded({ extended: false }))',
    'This API does not parse application/x-www-form-urlencoded bodies on this route',
    ['application/x-www-form-urlencoded'],
  ),
}

// RFC 9110 token characters, for the type and subtype of a media type.
function isToken(s: string, from: number, to: number): boolean {
  if (from >= to) return false
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i)
    const ok =
      (c >= 0x61 && c <= 0x7a) || // a-z (the value is lower-cased)
      (c >= 0x30 && c <= 0x39) ||
      c === 0x21 || // !
      (c >= 0x23 && c <= 0x27) || // # $ % & '
      c === 0x2a || // *
      c === 0x2b || // +
      c === 0x2d || // -
      c === 0x2e || // .
      (c >= 0x5e && c <= 0x60) || // ^ _ `
      c === 0x7c || // |
      c === 0x7e // ~
    if (!ok) return false
  }
  return true
}

/** The media type of a Content-Type header value, lower-cased, without parameters. */
function mediaType(header: string): string {
  const semi = header.indexOf(';')
  return (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase()
}

/** What parses a media type: 0 for one the body parsers do not understand. */
function kindOf(type: string): Kind {
  const kind = exact.get(type)
  if (kind !== undefined) return kind
  // Structured syntax suffix: application/vnd.api+json, application/merge-patch+json, …
  if (!type.endsWith('+json')) return 0
  const slash = type.indexOf('/')
  return slash > 0 && isToken(type, 0, slash) && isToken(type, slash + 1, type.length - 5)
    ? plusJson
    : 0
}

// No 415 echoes the request's header.
function unsupported(message: string): AppError {
  return raise('INVALID_CONTENT_TYPE', message, { allowed: contentTypesAllowed })
}

/**
 * 415 INVALID_CONTENT_TYPE for a POST, PUT or PATCH that carries a body (`hasBodyOnWire`) without
 * a JSON, URL-encoded or multipart `Content-Type`, or with a JSON or URL-encoded one that no body
 * parser parsed (`express.json()` parses only `application/json` unless given a `type`): that
 * answer says the API does not parse it, lists the other types, and warns the developer once
 * (`onUnparsed`). A multipart body is left to the route's own parser. Requests without a body and
 * other methods pass. Run after the host's body parsers.
 * @param onUnparsed called before the 415 for a body no parser read; default none
 * @example checkContentType(req, warnUnparsedBody) // before the body is validated
 */
export function checkContentType(
  req: Request,
  onUnparsed?: (req: Request, unparsed: Unparsed) => void,
): void {
  const method = req.method
  if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return
  if (!hasBodyOnWire(req)) return
  const header = req.headers['content-type']
  if (header === undefined || header === '') {
    throw unsupported(`Content-Type is required for a request with a body: ${send}`)
  }
  // The common exact header (`application/json`) is looked up without slicing or lower-casing.
  const kind = exact.get(header) ?? kindOf(mediaType(header))
  if (kind === 0) {
    throw unsupported(`Content-Type is not supported: ${send}`)
  }
  // A request that is not a stream (a test double) is taken as parsed.
  if (kind !== multipart && bodyRead(req) === false) {
    const what = unparsed[kind]!
    onUnparsed?.(req, what)
    throw raise('INVALID_CONTENT_TYPE', what.message, { allowed: what.allowed })
  }
}
