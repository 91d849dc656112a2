import type { Request } from 'express'
import { hasBodyOnWire } from '../core/has-body.js'

/**
 * The body as the schema should see it: `undefined` when the client sent none (`hasBodyOnWire`),
 * whatever the host's parser left in `req.body` (Express 4's `{}`, Express 5's `undefined`).
 */
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
