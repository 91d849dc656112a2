import { type ErrorCode, errorCodes } from '../../shared/error-codes.js'
import { contentTypesAllowed } from './media-types.js'
import { multipartClientError } from './multipart-errors.js'
import { dataField, isError } from './safe-read.js'

/** What a client error raised by the host framework (router, body parser, static files) becomes. */
export interface HostClientError {
  code: ErrorCode
  status: number
  message: string
  details: Record<string, unknown> | null
}

type Translate = (err: object) => HostClientError

// The code's status and, unless another is given, its registry message.
const answer = (
  code: ErrorCode,
  message: string = errorCodes[code].message,
  details: Record<string, unknown> | null = null,
): HostClientError => ({ code, status: errorCodes[code].status, message, details })

const fixed =
  (code: ErrorCode, message?: string, details: Record<string, unknown> | null = null): Translate =>
  () =>
    answer(code, message, details)

const unsupported = { allowed: contentTypesAllowed }

// body-parser's `type` values (body-parser 1 and 2 use the same names). The host's own messages
// are never sent: they echo the request (its charset, encoding, a slice of the body).
const byType = new Map<string, Translate>([
  ['entity.parse.failed', fixed('INVALID_JSON')],
  [
    'entity.too.large',
    (err) => {
      const limit = dataField(err, 'limit')
      return answer('PAYLOAD_TOO_LARGE', undefined, typeof limit === 'number' ? { limit } : null)
    },
  ],
  ['parameters.too.many', fixed('PAYLOAD_TOO_LARGE', 'Request body has too many parameters')],
  ['querystring.parse.rangeError', fixed('BAD_REQUEST', 'Request body is nested too deeply')],
  [
    'charset.unsupported',
    fixed('INVALID_CONTENT_TYPE', 'Content-Type charset is not supported: send UTF-8', unsupported),
  ],
  [
    'encoding.unsupported',
    fixed(
      'INVALID_CONTENT_TYPE',
      'Content-Encoding is not supported: send identity, gzip or deflate',
      unsupported,
    ),
  ],
  ['request.aborted', fixed('BAD_REQUEST', 'Request was aborted')],
  ['request.size.invalid', fixed('BAD_REQUEST', 'Request size did not match Content-Length')],
  ['entity.verify.failed', fixed('FORBIDDEN', 'Request body failed verification')],
])

// Any other 4xx of the host, by status; a status not listed is answered as 400 BAD_REQUEST.
const byStatus = new Map<number, HostClientError>([
  [400, answer('BAD_REQUEST')],
  [401, answer('UNAUTHORIZED')],
  [403, answer('FORBIDDEN')],
  [404, answer('NOT_FOUND')],
  [405, answer('METHOD_NOT_ALLOWED')],
  [409, answer('CONFLICT')],
  [413, answer('PAYLOAD_TOO_LARGE')],
  [415, answer('INVALID_CONTENT_TYPE', undefined, unsupported)],
  [429, answer('RATE_LIMIT_EXCEEDED')],
])

const malformedPath = answer('BAD_REQUEST', 'Malformed URL encoding in the path')

function clientStatus(err: object): number | undefined {
  let status = dataField(err, 'status')
  if (status === undefined) status = dataField(err, 'statusCode')
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 499
    ? status
    : undefined
}

/**
 * Recognises a client mistake reported by the host framework, as Express's own final handler
 * does: an `Error` carrying a 4xx `status` (or `statusCode`), whether or not it is marked
 * `expose`. body-parser errors are told apart by their `type`, the router's failure to decode a
 * path parameter by being a `URIError`; both are answered in our words, since their messages
 * quote the request. A route's multipart parser (multer, busboy) marks no status: its errors are
 * recognised by `multipartClientError`. Any other error keeps its message only when its creator marked it `expose`
 * (`createError(404, 'User not found')`), as Express sends it; an unmarked one (`send`'s 404
 * names a server file) gets our words. A value that is not an `Error` (a plain object thrown by
 * user code) is never trusted, and reading never runs a getter or lets a throwing Proxy trap
 * escape.
 */
export function hostClientError(value: unknown): HostClientError | undefined {
  if (!isError(value)) return undefined
  const multipart = multipartClientError(value)
  if (multipart !== undefined) {
    const { code, message, field } = multipart
    return answer(code, message, field === undefined ? null : { field })
  }
  const status = clientStatus(value)
  if (status === undefined) return undefined
  const type = dataField(value, 'type')
  const translate = typeof type === 'string' ? byType.get(type) : undefined
  if (translate !== undefined) return translate(value)
  if (status === 400 && isError(value, URIError)) return malformedPath
  const ours = byStatus.get(status) ?? byStatus.get(400)!
  const message = dataField(value, 'expose') === true ? dataField(value, 'message') : undefined
  return typeof message === 'string' && message !== '' ? { ...ours, message } : ours
}
