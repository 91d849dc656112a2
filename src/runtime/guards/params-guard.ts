import { hasHostileChars, sanitizeString } from './sanitize.js'

/**
 * Sanitises route param values in place, as query and body strings are: null bytes, zero-width
 * characters and bidi controls removed. Values are strings, or arrays of strings for Express 5's
 * wildcard params (`/*rest`); the names come from the route path, not from the client. Never
 * throws; allocates nothing when every value is clean.
 * @example sanitizeParams(req.params) // '/f/a%00b' reaches the handler as { id: 'ab' }
 */
export function sanitizeParams(params: unknown): void {
  if (typeof params !== 'object' || params === null) return
  const o = params as Record<string, unknown>
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue
    const v = o[k]
    if (typeof v === 'string') {
      if (hasHostileChars(v)) o[k] = sanitizeString(v)
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const s = v[i]
        if (typeof s === 'string' && hasHostileChars(s)) v[i] = sanitizeString(s)
      }
    }
  }
}
