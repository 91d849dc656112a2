import { type ErrorCode, errorCodes } from './error-codes.js'

/** What a client error raised by the host framework (body parser, static files) becomes. */
export interface HostClientError {
  code: ErrorCode
  status: number
  message: string
  details: Record<string, unknown> | null
}

type Translate = (err: HttpErrorLike) => HostClientError

interface HttpErrorLike {
  type?: unknown
  status?: unknown
  statusCode?: unknown
  expose?: unknown
  message?: unknown
  limit?: unknown
}

const fixed =
  (code: ErrorCode, message: string): Translate =>
  () => ({ code, status: errorCodes[code].status, message, details: null })

const ownMessage =
  (code: ErrorCode): Translate =>
  (err) => ({
    code,
    status: errorCodes[code].status,
    message: typeof err.message === 'string' ? err.message : code,
    details: null,
  })

// body-parser's `type` values (body-parser 1 and 2 use the same names).
const byBodyParserType: Record<string, Translate> = {
  'entity.parse.failed': fixed('INVALID_JSON', 'Request body is not valid JSON'),
  'entity.too.large': (err) => ({
    code: 'PAYLOAD_TOO_LARGE',
    status: 413,
    message: 'Request body is too large',
    details: typeof err.limit === 'number' ? { limit: err.limit } : null,
  }),
  'parameters.too.many': fixed('PAYLOAD_TOO_LARGE', 'Request body has too many parameters'),
  'charset.unsupported': ownMessage('INVALID_CONTENT_TYPE'),
  'encoding.unsupported': ownMessage('INVALID_CONTENT_TYPE'),
  'request.aborted': fixed('BAD_REQUEST', 'Request was aborted'),
  'request.size.invalid': fixed('BAD_REQUEST', 'Request size did not match Content-Length'),
}

// Other http-errors style client errors (`expose: true`, 4xx) by status.
const byStatus: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'INVALID_CONTENT_TYPE',
  429: 'RATE_LIMIT_EXCEEDED',
}

/**
 * Recognises a client mistake reported by the host framework: body-parser errors by their `type`,
 * other http-errors objects by `expose: true` and a 4xx status. Anything else is not a client error.
 */
export function hostClientError(value: unknown): HostClientError | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const err = value as HttpErrorLike
  const translate = typeof err.type === 'string' ? byBodyParserType[err.type] : undefined
  if (translate !== undefined) return translate(err)
  const status = typeof err.status === 'number' ? err.status : err.statusCode
  if (err.expose !== true || typeof status !== 'number' || status < 400 || status > 499) {
    return undefined
  }
  const code = byStatus[status] ?? 'BAD_REQUEST'
  return {
    code,
    status: errorCodes[code].status,
    message: typeof err.message === 'string' && err.message !== '' ? err.message : code,
    details: null,
  }
}
