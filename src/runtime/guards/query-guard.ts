import { isObject } from '../../shared/is-object.js'
import { limitError, paramPollution, Violation } from './guard-errors.js'
import type { GuardLimits } from './limits.js'
import { sanitizeString } from './sanitize.js'
import { checkKey, rebuilt, startWalk, walkValue } from './walk.js'

function isUndeclaredArray(value: unknown, key: string, arrayKeys: ReadonlySet<string>): boolean {
  return Array.isArray(value) && !arrayKeys.has(sanitizeString(key))
}

/**
 * The first repeated parameter in key order: an array value the schema does not declare, or a
 * name that two keys share once sanitised (`ta%E2%80%8Bg=1&tag=2`). Only run when a key was
 * renamed; otherwise keys are distinct and the first undeclared array is the answer.
 */
function firstRepeated(
  o: Record<string, unknown>,
  keys: readonly string[],
  arrayKeys: ReadonlySet<string>,
): string | undefined {
  const counts = new Map<string, number>()
  for (const k of keys) {
    const clean = sanitizeString(k)
    counts.set(clean, (counts.get(clean) ?? 0) + 1)
  }
  for (const k of keys) {
    const clean = sanitizeString(k)
    if (clean === 'constructor' || clean === 'prototype') continue
    if ((counts.get(clean) ?? 0) > 1 || isUndeclaredArray(o[k], k, arrayKeys)) return clean
  }
  return undefined
}

/**
 * 400 PARAM_POLLUTION for the first repeated query key (an array value) that the route's query
 * schema does not declare as an array; returns the query with its keys and strings sanitised.
 * Like a body, the query is checked for `__proto__` keys, removes `constructor`/`prototype` keys,
 * and keys, strings and nested values (Express 4's `qs` makes `a[b]=1` an object) are held to the
 * same limits as the body, the query itself being level 1. Precedence: PROTO_POLLUTION >
 * PARAM_POLLUTION > BODY_TOO_DEEP > BODY_ARRAY_TOO_LARGE > STRING_TOO_LONG.
 * @param arrayKeys the top-level keys the query schema declares as arrays
 * @param limits the route's limits merged over the app's, from `resolveLimits`
 * @example const query = guardQuery(req.query, new Set(['tag']), resolveLimits(config.validation?.limits, route.limits))
 */
export function guardQuery(
  query: unknown,
  arrayKeys: ReadonlySet<string>,
  limits: GuardLimits,
): unknown {
  if (!isObject(query)) return query
  const o = query
  const w = startWalk('Query', limits)
  const keys = Object.keys(o)
  let renamed = false
  let repeated: string | undefined
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!
    if (checkKey(k, w)) renamed = true
    const v = o[k]
    if (repeated === undefined && isUndeclaredArray(v, k, arrayKeys)) repeated = k
    if (typeof v === 'string' || (typeof v === 'object' && v !== null)) {
      const cleaned = walkValue(v, 2, w)
      if (cleaned !== v) o[k] = cleaned
    }
  }
  if (renamed) repeated = firstRepeated(o, keys, arrayKeys)
  if (repeated !== undefined) throw paramPollution(repeated)
  if (w.worst !== Violation.none) throw limitError(w.worst, 'Query', limits)
  return renamed ? rebuilt(o, keys) : o
}
