import type { FileField } from '../../shared/file-field.js'
import { type AppError, raise } from '../core/app-error.js'
import { clientName } from '../guards/client-name.js'

// Every answer a multipart body can get before the handler. A declared field's name comes from
// the route (the developer's text); a name the client sent is sanitised and clipped, and only in
// `details`, which the answer escapes: a message never holds a request value.

const multipartOnly = Object.freeze(['multipart/form-data'])

const path = (field: string): string => `files.${field}`

/** 413: a file larger than its field's `maxBytes`, found while it streams. */
export function fileTooLarge(field: string, maxBytes: number): AppError {
  return raise('PAYLOAD_TOO_LARGE', `File ${path(field)} is larger than ${maxBytes} bytes`, {
    field: path(field),
    maxBytes,
  })
}

/** 415: a file whose type (sniffed, else declared) is not one of its field's `types`. */
export function fileTypeRefused(field: string, types: readonly string[]): AppError {
  return raise(
    'INVALID_CONTENT_TYPE',
    `File ${path(field)} is not of an accepted type: send ${types.join(', ')}`,
    { field: path(field), allowed: types },
  )
}

/** 422 for a field given fewer files than its `min` (a required `file()`: none). */
export function tooFewFiles(field: string, spec: FileField): AppError {
  const message = spec.many ? `At least ${spec.min} files are required` : 'File is required'
  return raise('VALIDATION_ERROR', undefined, { field: path(field), message })
}

/** 422 for a field given more files than its `max`. */
export function tooManyFiles(field: string, spec: FileField): AppError {
  const message = spec.many ? `At most ${spec.max} files are accepted` : 'Only one file is accepted'
  return raise('VALIDATION_ERROR', undefined, { field: path(field), message })
}

/** 422 for a file whose client filename is longer than any file system keeps (`MAX_SENT_NAME`). */
export function fileNameTooLong(field: string, max: number): AppError {
  return raise('VALIDATION_ERROR', undefined, {
    field: path(field),
    message: `Filename is longer than ${max} characters`,
  })
}

/** 422 for a file part under a name the route does not declare (or under no name). */
export function undeclaredFile(name: string | undefined): AppError {
  const field = name === undefined || name === '' ? 'files' : path(clientName(name))
  const message = field === 'files' ? 'File part has no name' : 'Unexpected file field'
  return raise('VALIDATION_ERROR', undefined, { field, message })
}

/** 422 for a text part without a name. */
export function unnamedField(): AppError {
  return raise('VALIDATION_ERROR', undefined, { field: 'body', message: 'Form field has no name' })
}

/** 400 for a text field sent twice that the body schema does not take as an array, as a query key. */
export function repeatedField(name: string): AppError {
  return raise('PARAM_POLLUTION', 'A form field must not be repeated', {
    param: clientName(name),
  })
}

/** 413 for more parts, fields or header bytes than the route's limits allow. */
export function tooManyParts(what: string, limit: number): AppError {
  return raise('PAYLOAD_TOO_LARGE', `Request body has more than ${limit} ${what}`, { limit })
}

/** 415 for a body that is not multipart/form-data on a route that declares files. */
export function notMultipart(): AppError {
  return raise('INVALID_CONTENT_TYPE', 'This route takes files: send multipart/form-data', {
    allowed: multipartOnly,
  })
}

/** 415 for a compressed multipart body: it is never inflated. */
export function encodedBody(): AppError {
  return raise(
    'INVALID_CONTENT_TYPE',
    'Content-Encoding is not supported on a multipart/form-data body: send it uncompressed',
    { allowed: multipartOnly },
  )
}

/** 400 for a body that ends before its closing boundary, has none, or is cut off. */
export function malformed(message = 'Malformed multipart/form-data body'): AppError {
  return raise('BAD_REQUEST', message)
}
