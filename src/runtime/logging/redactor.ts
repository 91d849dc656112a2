import { maskQuery, type SecretParam } from '../telemetry/url-query.js'
import { isSecretKey, MAX_LOG_DEPTH, normalizeKey, REDACTED } from './redact.js'
import { type CompiledPaths, compilePaths, matchesPath, secretParams } from './redact-paths.js'

/**
 * Returns a redacted, JSON-safe copy; never mutates its input and never throws. `at` is where
 * the value sits (normalised keys, e.g. `['req', 'body']` for a request body) so that paths
 * naming it match. With a `budget`, the walk stops once the copy's JSON is known to take more
 * than `budget.left` UTF-8 bytes (`left` is then below 0): the copy's JSON, up to that point, is
 * the whole copy's, and strings longer than the budget are cut one past it. In every string, the
 * value of a query parameter whose name is redacted in `req.query` is masked (`url`,
 * `originalUrl`, a link in a message): `/items?api_key=[REDACTED]`.
 */
export type Redactor = (value: unknown, at?: readonly string[], budget?: Budget) => unknown

/** UTF-8 bytes of JSON a budgeted walk may still write before it stops. */
export interface Budget {
  left: number
}

// At most the UTF-8 bytes of `value`'s JSON (a string's escapes and multi-byte characters only
// add to its length), for what a walk returns; a container counts its brackets itself.
function lowerBound(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2
    case 'number':
      return 1
    case 'boolean':
      return 4
    case 'undefined':
      return 0
    default:
      return value === null ? 4 : 0
  }
}

function put(target: Record<string, unknown>, key: string, value: unknown): void {
  // An own `__proto__` key (JSON.parse makes them) must stay data, never become a prototype.
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  } else target[key] = value
}

function walk(
  paths: CompiledPaths,
  secret: SecretParam,
  value: unknown,
  trail: string[],
  ancestors: Set<object>,
  budget: Budget | undefined,
): unknown {
  if (typeof value === 'string') {
    // One past the budget is enough to know the JSON passes it. Masking the cut string masks what
    // is left of a value it cut into, and keeps the copy's JSON the start of the whole one's.
    const cut =
      budget !== undefined && value.length > budget.left
        ? value.slice(0, Math.max(budget.left, 0) + 1)
        : value
    return maskQuery(cut, secret, REDACTED)
  }
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'function' || typeof value === 'symbol') return undefined
  if (value === null || typeof value !== 'object') return value
  if (ancestors.has(value)) return '[Circular]'
  if (trail.length >= MAX_LOG_DEPTH) return '[Truncated]'
  let source: unknown = value
  try {
    if (value instanceof Error) {
      source = { ...value, name: value.name, message: value.message, stack: value.stack }
    } else if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
      source = (value as { toJSON: () => unknown }).toJSON()
      if (source === null || typeof source !== 'object')
        return walk(paths, secret, source, trail, ancestors, budget)
    }
    ancestors.add(value)
    // The opening bracket now, the closing one once every member is in: what is counted is always
    // written before the point the walk stops at.
    if (budget !== undefined) budget.left -= 1
    if (Array.isArray(source)) {
      // Only a user path (`tags.*`, `items.0`) can name an array element.
      const byIndex = paths.byLast.size > 0 || paths.keys.size > 0
      const out: unknown[] = []
      for (let i = 0; i < source.length; i++) {
        const index = String(i)
        let child: unknown = REDACTED
        if (!(byIndex && matchesPath(paths, index, trail))) {
          trail.push(index)
          child = walk(paths, secret, source[i], trail, ancestors, budget)
          trail.pop()
        }
        out.push(child)
        if (budget !== undefined) {
          // An element JSON has no value for is written `null`; a comma before each but the first.
          budget.left -= (child === undefined ? 4 : lowerBound(child)) + (i > 0 ? 1 : 0)
          if (budget.left < 0) return out
        }
      }
      if (budget !== undefined) budget.left -= 1
      return out
    }
    const out: Record<string, unknown> = {}
    let first = true
    for (const key of Object.keys(source as object)) {
      const name = normalizeKey(key)
      let child: unknown = REDACTED
      if (!(isSecretKey(name) || matchesPath(paths, name, trail))) {
        trail.push(name)
        try {
          child = walk(
            paths,
            secret,
            (source as Record<string, unknown>)[key],
            trail,
            ancestors,
            budget,
          )
        } catch {
          child = '[Unreadable]'
        }
        trail.pop()
      }
      put(out, key, child)
      // A member JSON writes: `"key":value`, a comma before each but the first.
      if (budget !== undefined && child !== undefined) {
        budget.left -= key.length + 3 + lowerBound(child) + (first ? 0 : 1)
        first = false
        if (budget.left < 0) return out
      }
    }
    if (budget !== undefined) budget.left -= 1
    return out
  } catch {
    return '[Unreadable]'
  } finally {
    ancestors.delete(value)
  }
}

/**
 * Builds the redactor for the always-redacted keys plus `extra` (already validated) paths.
 * Keys match after normalisation at any depth; multi-segment paths match the end of the trail.
 */
export function createRedactor(extra: readonly string[] = []): Redactor {
  const paths: CompiledPaths = compilePaths(extra)
  const secret = secretParams(paths)
  return function redact(value: unknown, at: readonly string[] = [], budget?: Budget): unknown {
    try {
      const key = at[at.length - 1]
      if (key !== undefined && matchesPath(paths, key, at.slice(0, -1))) return REDACTED
      return walk(paths, secret, value, [...at], new Set(), budget)
    } catch {
      return '[Unreadable]'
    }
  }
}
