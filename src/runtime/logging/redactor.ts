import { isSecretKey, MAX_LOG_DEPTH, normalizeKey, REDACTED } from './redact.js'
import { type CompiledPaths, compilePaths, matchesPath } from './redact-paths.js'

/**
 * Returns a redacted, JSON-safe copy; never mutates its input and never throws. `at` is where
 * the value sits (normalised keys, e.g. `['req', 'body']` for a request body) so that paths
 * naming it match.
 */
export type Redactor = (value: unknown, at?: readonly string[]) => unknown

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
  value: unknown,
  trail: string[],
  ancestors: Set<object>,
): unknown {
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
        return walk(paths, source, trail, ancestors)
    }
    ancestors.add(value)
    if (Array.isArray(source)) {
      // Only a user path (`tags.*`, `items.0`) can name an array element.
      const byIndex = paths.byLast.size > 0 || paths.keys.size > 0
      const out: unknown[] = []
      for (let i = 0; i < source.length; i++) {
        const index = String(i)
        if (byIndex && matchesPath(paths, index, trail)) {
          out.push(REDACTED)
          continue
        }
        trail.push(index)
        out.push(walk(paths, source[i], trail, ancestors))
        trail.pop()
      }
      return out
    }
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(source as object)) {
      const name = normalizeKey(key)
      if (isSecretKey(name) || matchesPath(paths, name, trail)) {
        put(out, key, REDACTED)
        continue
      }
      trail.push(name)
      let child: unknown
      try {
        child = walk(paths, (source as Record<string, unknown>)[key], trail, ancestors)
      } catch {
        child = '[Unreadable]'
      }
      trail.pop()
      put(out, key, child)
    }
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
  return function redact(value: unknown, at: readonly string[] = []): unknown {
    try {
      const key = at[at.length - 1]
      if (key !== undefined && matchesPath(paths, key, at.slice(0, -1))) return REDACTED
      return walk(paths, value, [...at], new Set())
    } catch {
      return '[Unreadable]'
    }
  }
}
