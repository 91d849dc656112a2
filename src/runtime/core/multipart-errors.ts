import type { ErrorCode } from '../../shared/error-codes.js'
import { dataField } from './safe-read.js'

// What a route's own multipart parser (multer, or busboy under it) reports about a client's
// body. Neither marks its errors with an HTTP status, so Express would answer every one 500;
// each is a client mistake, answered in our words (multer's messages are fixed, busboy's may
// quote the request's Content-Type).

/** A multipart parser's error, as the host's other client errors are answered. */
export interface MultipartClientError {
  readonly code: ErrorCode
  readonly message: string
  /** The form field it names, when multer gives one that is safe to repeat. */
  readonly field: string | undefined
}

const tooLarge = (message: string) => ['PAYLOAD_TOO_LARGE', message] as const
const malformed = (message: string) => ['BAD_REQUEST', message] as const

// multer's `MulterError` codes (multer 1 and 2).
const multerCodes = new Map<string, readonly [ErrorCode, string]>([
  ['LIMIT_PART_COUNT', tooLarge('Request body has too many parts')],
  ['LIMIT_FILE_SIZE', tooLarge('File is too large')],
  ['LIMIT_FILE_COUNT', tooLarge('Request body has too many files')],
  ['LIMIT_FIELD_KEY', tooLarge('Form field name is too long')],
  ['LIMIT_FIELD_VALUE', tooLarge('Form field value is too long')],
  ['LIMIT_FIELD_COUNT', tooLarge('Request body has too many fields')],
  ['LIMIT_UNEXPECTED_FILE', malformed('Unexpected file field')],
  ['MISSING_FIELD_NAME', malformed('Form field name is missing')],
  ['LIMIT_FIELD_NESTING', malformed('Form field name is nested too deeply')],
  ['LIMIT_FIELD_ARRAY_INDEX', malformed('Form field name has too large an array index')],
  ['INVALID_FIELD_NAME', malformed('Form field name is not valid')],
  ['STREAM_DESTROYED', malformed('Request was aborted')],
])

// busboy's and multer's plain errors about the body itself, by their fixed messages.
const parserMessages = new Map<string, readonly [ErrorCode, string]>([
  ['Unexpected end of form', malformed('Multipart body ended before its closing boundary')],
  ['Unexpected end of file', malformed('Multipart body ended inside a file')],
  ['Malformed part header', malformed('Multipart body has a malformed part header')],
  ['Multipart: Boundary not found', malformed('Multipart Content-Type has no boundary')],
  ['Malformed content type', ['INVALID_CONTENT_TYPE', 'Content-Type is malformed']],
  ['Missing Content-Type', ['INVALID_CONTENT_TYPE', 'Content-Type is missing']],
  ['Request aborted', malformed('Request was aborted')],
  ['Request closed', malformed('Request was aborted')],
])
const unsupported = 'Unsupported content type: '

// A field name repeated in an answer: short, and only characters a form's own names use.
const safeField = /^[\w.[\]-]{1,64}$/

/**
 * Recognises an error of a multipart parser mounted on a route: multer's `MulterError` by its
 * `code`, busboy's plain `Error`s by their fixed messages. Undefined for anything else.
 */
export function multipartClientError(error: Error): MultipartClientError | undefined {
  let entry: readonly [ErrorCode, string] | undefined
  let field: string | undefined
  if (dataField(error, 'name') === 'MulterError') {
    const code = dataField(error, 'code')
    entry = typeof code === 'string' ? multerCodes.get(code) : undefined
    const named = dataField(error, 'field')
    if (typeof named === 'string' && safeField.test(named)) field = named
  } else if (Object.getPrototypeOf(error) === Error.prototype) {
    const message = dataField(error, 'message')
    if (typeof message === 'string') {
      entry = parserMessages.get(message)
      if (entry === undefined && message.startsWith(unsupported))
        entry = ['INVALID_CONTENT_TYPE', 'Content-Type is not supported for this body']
    }
  }
  return entry === undefined ? undefined : { code: entry[0], message: entry[1], field }
}
