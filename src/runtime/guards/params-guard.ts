import { limitError, Violation } from './guard-errors.js'
import type { GuardLimits } from './limits.js'
import { hasHostileChars, isTooLong, sanitizeString } from './sanitize.js'

function cleaned(s: string, limits: GuardLimits): string {
  if (isTooLong(s, limits.maxStringLength)) {
    throw limitError(Violation.stringTooLong, 'Params', limits)
  }
  return hasHostileChars(s) ? sanitizeString(s) : s
}

/**
 * Sanitises route param values in place, as query and body strings are: null bytes, zero-width
 * characters and bidi controls removed; 400 STRING_TOO_LONG for a value over the route's
 * `maxStringLength`, as for any other string the client sends. Values are strings, or arrays of
 * strings for Express 5's wildcard params (`/*rest`); the names come from the route path, not
 * from the client. Allocates nothing when every value is clean.
 * @param limits the route's limits merged over the app's, from `resolveLimits`
 * @example sanitizeParams(req.params, limits) // '/f/a%00b' reaches the handler as { id: 'ab' }
 */
export function sanitizeParams(params: unknown, limits: GuardLimits): void {
  if (typeof params !== 'object' || params === null) return
  const o = params as Record<string, unknown>
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue
    const v = o[k]
    if (typeof v === 'string') {
      const c = cleaned(v, limits)
      if (c !== v) o[k] = c
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const s = v[i]
        if (typeof s !== 'string') continue
        const c = cleaned(s, limits)
        if (c !== s) v[i] = c
      }
    }
  }
}
