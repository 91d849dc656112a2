import {
  ALWAYS_REDACTED,
  type CompiledPaths,
  compilePaths,
  MAX_LOG_DEPTH,
  REDACTED,
} from './redact.js'

/** Returns a redacted, JSON-safe copy; never mutates its input and never throws. */
export type Redactor = (value: unknown) => unknown

function endsWith(trail: readonly string[], segments: readonly string[]): boolean {
  // `segments` ends with the key itself, already matched; compare the parents.
  const parents = segments.length - 1
  if (trail.length < parents) return false
  for (let i = 0; i < parents; i++) {
    const want = segments[i]!
    const got = trail[trail.length - parents + i]!
    if (want !== '*' && want !== got) return false
  }
  return true
}

function isRedacted(paths: CompiledPaths, key: string, trail: readonly string[]): boolean {
  const lower = key.toLowerCase()
  if (paths.keys.has(lower)) return true
  const exact = paths.byLast.get(lower)
  if (exact?.some((segments) => endsWith(trail, segments))) return true
  const any = paths.byLast.get('*')
  return any?.some((segments) => endsWith(trail, segments)) === true
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
      const out: unknown[] = []
      for (let i = 0; i < source.length; i++) {
        trail.push('*')
        out.push(walk(paths, source[i], trail, ancestors))
        trail.pop()
      }
      return out
    }
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(source as object)) {
      if (isRedacted(paths, key, trail)) {
        put(out, key, REDACTED)
        continue
      }
      trail.push(key.toLowerCase())
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
 * Keys match case-insensitively at any depth; multi-segment paths match the end of the key trail.
 */
export function createRedactor(extra: readonly string[] = []): Redactor {
  const paths = compilePaths([...ALWAYS_REDACTED, ...extra])
  return function redact(value: unknown): unknown {
    try {
      return walk(paths, value, [], new Set())
    } catch {
      return '[Unreadable]'
    }
  }
}
