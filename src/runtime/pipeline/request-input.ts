import type { Request } from 'express'

/**
 * Whether the request carries a body on the wire: chunked, or a `Content-Length` that is not zero
 * (`0`, `00` and an empty value all count as none, as node's HTTP parser reads them). The one rule
 * for the content-type guard and the body step. Express 4's parser leaves `{}` on a request
 * without one; Express 5 leaves `undefined`: both count as a missing body.
 */
export function hasBodyOnWire(req: Request): boolean {
  const headers = req.headers
  if (headers['transfer-encoding'] !== undefined) return true
  const length = headers['content-length']
  return length !== undefined && length !== '0' && Number(length) !== 0
}

/** The body as the schema should see it: `undefined` when the client sent none. */
export function bodyInput(req: Request): unknown {
  const body = req.body
  if (body === undefined || body === null || typeof body !== 'object') return body
  if (hasBodyOnWire(req)) return body
  for (const _ in body) return body
  return Array.isArray(body) ? body : undefined
}

/**
 * A copy of a parsed request value with every string trimmed and/or lower-cased
 * (`validation.strings`). Depth is bounded by the guards (body) and the query parser (query).
 */
export function normaliseStrings(value: unknown, trim: boolean, lowercase: boolean): unknown {
  if (typeof value === 'string') {
    const t = trim ? value.trim() : value
    return lowercase ? t.toLowerCase() : t
  }
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map((v) => normaliseStrings(v, trim, lowercase))
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return value
  const out: Record<string, unknown> = proto === null ? Object.create(null) : {}
  for (const key of Object.keys(value)) {
    // The guards reject `__proto__` in bodies; never let an assignment reach the prototype.
    if (key === '__proto__') continue
    out[key] = normaliseStrings((value as Record<string, unknown>)[key], trim, lowercase)
  }
  return out
}
