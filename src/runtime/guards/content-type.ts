import type { Request } from 'express'
import { AppError } from '../app-error.js'
import { errorCodes } from '../error-codes.js'

const exact = new Set([
  'application/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
])

const allowed = Object.freeze([
  'application/json',
  'application/*+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
])

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

/** Whether a Content-Type header value names a media type the body parsers understand. */
export function isSupportedContentType(header: string): boolean {
  const semi = header.indexOf(';')
  const type = (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase()
  if (exact.has(type)) return true
  // Structured syntax suffix: application/vnd.api+json, application/merge-patch+json, …
  if (!type.endsWith('+json')) return false
  const slash = type.indexOf('/')
  return slash > 0 && isToken(type, 0, slash) && isToken(type, slash + 1, type.length - 5)
}

function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true
  const length = req.headers['content-length']
  return length !== undefined && Number(length) !== 0
}

/**
 * 415 INVALID_CONTENT_TYPE for a POST, PUT or PATCH that carries a body (a non-zero
 * `Content-Length` or a `Transfer-Encoding`) without a JSON, URL-encoded or multipart
 * `Content-Type`. Requests without a body and other methods pass.
 * @example checkContentType(req) // before the body is validated
 */
export function checkContentType(req: Request): void {
  const method = req.method
  if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return
  if (!hasBody(req)) return
  const header = req.headers['content-type']
  if (header !== undefined && isSupportedContentType(header)) return
  const { code, status } = errorCodes.INVALID_CONTENT_TYPE
  throw new AppError(
    code,
    header === undefined || header === ''
      ? 'Content-Type is required for a request with a body: send application/json, application/x-www-form-urlencoded or multipart/form-data'
      : 'Content-Type is not supported: send application/json, application/x-www-form-urlencoded or multipart/form-data',
    status,
    { allowed },
  )
}
