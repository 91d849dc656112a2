import type { Request } from 'express'
import type { ResolvedScheme } from '../../shared/security-scheme.js'
import { cookieJar } from '../cookies/cookie-jar.js'
import type { ResolvedConfig } from '../core/config.js'
import { MAX_CREDENTIAL_LENGTH, MISSING, REFUSED, type Read } from './authorization.js'

type ApiKeyScheme = Extract<ResolvedScheme, { kind: 'apiKey' }>

function sent(scheme: ApiKeyScheme, req: Request, config: ResolvedConfig): unknown {
  if (scheme.in === 'cookie') return cookieJar(req, config.cookies.secrets).plain[scheme.key]
  const source: unknown = scheme.in === 'header' ? req.headers : req.query
  // An own property only: a key named like an Object.prototype member is not sent by inheritance.
  return typeof source === 'object' && source !== null && Object.hasOwn(source, scheme.key)
    ? (source as Record<string, unknown>)[scheme.key]
    : undefined
}

/**
 * An API key from where its scheme says, and only there: the header (its lower-cased name), the
 * query parameter or the cookie (the `Cookie` header parsed as the cookie slots parse it). MISSING
 * when absent or empty; REFUSED when repeated (`?key=a&key=b`), nested (`?key[a]=b`) or too long.
 */
export function readApiKey(
  scheme: ApiKeyScheme,
  req: Request,
  config: ResolvedConfig,
): Read<string> {
  const value = sent(scheme, req, config)
  if (value === undefined || value === '') return MISSING
  if (typeof value !== 'string' || value.length > MAX_CREDENTIAL_LENGTH) return REFUSED
  return value
}
