import type { Request } from 'express'
import { authorizationParam, type Read } from './authorization.js'

/**
 * The bearer token of `Authorization: Bearer <token>` (RFC 6750; the scheme in any case). MISSING
 * without one (`Bearer` alone too), REFUSED when it holds a space or is too long.
 */
export function readBearer(req: Request): Read<string> {
  return authorizationParam(req.headers.authorization, 'bearer')
}
