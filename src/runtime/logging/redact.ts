/** What a redacted value is replaced with. */
export const REDACTED = '[REDACTED]'

/** Always redacted (SPEC.md 6.2); `logger.redact` can only add to these. */
export const ALWAYS_REDACTED: readonly string[] = Object.freeze([
  'password',
  'passwordHash',
  'token',
  'secret',
  'accessToken',
  'refreshToken',
  'apiKey',
  'cardNumber',
  'cvv',
  'ssn',
  'pin',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.query.token',
  'req.query.apiKey',
])

/** Deeper values are replaced by `[Truncated]`: logs must never overflow the stack. */
export const MAX_LOG_DEPTH = 32

const SEGMENT = /^(?:\*|[A-Za-z0-9_$-]+)$/

/**
 * Checks `logger.redact` at mount time: dotted key paths (`card.number`, `req.headers.x-api-key`,
 * `items.*.secret`); a lone `*` or an empty, bracketed or spaced path is an error.
 */
export function validateRedactPaths(paths: unknown): readonly string[] {
  if (paths === undefined) return []
  if (!Array.isArray(paths)) {
    throw new TypeError('shapeguard: logger.redact must be an array of key paths')
  }
  paths.forEach((path: unknown, i) => {
    const segments = typeof path === 'string' ? path.split('.') : []
    if (
      segments.length === 0 ||
      !segments.every((s) => SEGMENT.test(s)) ||
      (segments.length === 1 && segments[0] === '*')
    ) {
      throw new TypeError(
        `shapeguard: logger.redact[${i}] (${JSON.stringify(path) ?? String(path)}) is not a valid path: ` +
          'use key names joined by dots, e.g. "card.number" or "items.*.secret"',
      )
    }
  })
  return Object.freeze([...(paths as string[])])
}

/** A path split into lower-case segments; the last one is the key that gets redacted. */
export interface CompiledPaths {
  /** Key names redacted at any depth. */
  readonly keys: ReadonlySet<string>
  /** Multi-segment paths, by last segment (`*` for any), matched against the end of the trail. */
  readonly byLast: ReadonlyMap<string, readonly (readonly string[])[]>
}

export function compilePaths(paths: readonly string[]): CompiledPaths {
  const keys = new Set<string>()
  const byLast = new Map<string, string[][]>()
  for (const path of paths) {
    const segments = path.toLowerCase().split('.')
    const last = segments[segments.length - 1]!
    if (segments.length === 1) keys.add(last)
    else byLast.set(last, [...(byLast.get(last) ?? []), segments])
  }
  return { keys, byLast }
}
