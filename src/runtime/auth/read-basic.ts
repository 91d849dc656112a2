import type { Request } from 'express'
import { authorizationParam, REFUSED, type Read } from './authorization.js'

/** A user and password of `Authorization: Basic …`. */
export interface BasicCredentials {
  readonly user: string
  readonly password: string
}

// Base64 with its padding (RFC 4648), what RFC 7617 sends; Buffer alone would skip bad characters.
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/
// A control character has no place in a user or a password (RFC 7617, section 2) or in a log.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/
const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * The credentials of `Authorization: Basic <base64 of user:password>` (RFC 7617; the scheme in any
 * case), split at the first `:` (a password may hold more). MISSING without them; REFUSED when
 * they are not base64, not UTF-8, without `:`, hold a control character or are too long.
 */
export function readBasic(req: Request): Read<BasicCredentials> {
  const encoded = authorizationParam(req.headers.authorization, 'basic')
  if (typeof encoded !== 'string') return encoded
  if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) return REFUSED
  let text: string
  try {
    text = utf8.decode(Buffer.from(encoded, 'base64'))
  } catch {
    return REFUSED
  }
  const colon = text.indexOf(':')
  if (colon === -1 || CONTROL.test(text)) return REFUSED
  return { user: text.slice(0, colon), password: text.slice(colon + 1) }
}
