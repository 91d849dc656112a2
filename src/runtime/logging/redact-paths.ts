import { optionError } from '../../shared/error-codes.js'
import { isSecretKey, MAX_LOG_DEPTH, normalizeKey } from './redact.js'

/** `logger.redact` entries, compiled once: every segment normalised, aliases resolved. */
export interface CompiledPaths {
  /** Key names redacted at any depth. */
  readonly keys: ReadonlySet<string>
  /** Multi-segment paths: their parent segments, by last segment (`*` for any). */
  readonly byLast: ReadonlyMap<string, readonly (readonly string[])[]>
}

const SEGMENT = /^(?:\*|[A-Za-z0-9_$-]+)$/

// The request log files the bodies under these trails, so `reqBody.x` reads as `req.body.x`.
// A Map: a segment such as `constructor` must read nothing from Object.prototype.
const ALIASES: ReadonlyMap<string, readonly string[]> = new Map([
  ['reqbody', ['req', 'body']],
  ['resbody', ['res', 'body']],
])

function segmentsOf(path: string): string[] {
  const [first = '', ...rest] = path.split('.').map((s) => (s === '*' ? s : normalizeKey(s)))
  const segments = [...(ALIASES.get(first) ?? [first]), ...rest]
  // A leading `*` means "at any depth", which every path already matches.
  while (segments.length > 1 && segments[0] === '*') segments.shift()
  return segments
}

function whyNever(path: unknown): string | undefined {
  if (typeof path !== 'string') return 'is not a string'
  const raw = path.split('.')
  if (!raw.every((s) => SEGMENT.test(s))) {
    return 'is not a valid path: use key names joined by dots, e.g. "card.number" or "items.*.secret"'
  }
  const segments = segmentsOf(path)
  if (segments.every((s) => s === '*')) return 'would redact every value: name at least one key'
  if (segments.includes('')) return 'has a key made only of "-" and "_", which names no key'
  if (segments.length > MAX_LOG_DEPTH) {
    return `is deeper than the ${MAX_LOG_DEPTH} levels a log record keeps, so it can never match`
  }
  return undefined
}

/**
 * Checks `logger.redact` at mount time: key names (`dob`), dotted paths (`card.number`,
 * `req.body.dob`, `req.headers.x-api-key`) and `*` for any one key (`items.*.secret`, `*.dob`).
 * An entry that is malformed or can never match throws, naming its index and why.
 */
export function validateRedactPaths(paths: unknown): readonly string[] {
  if (paths === undefined) return []
  if (!Array.isArray(paths)) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      'shapeguard: logger.redact: must be an array of key paths',
    )
  }
  paths.forEach((path: unknown, i) => {
    const why = whyNever(path)
    if (why !== undefined) {
      throw optionError(
        'SG_ERR_INVALID_OPTION',
        `shapeguard: logger.redact[${i}]: ${JSON.stringify(path) ?? String(path)} ${why}`,
      )
    }
  })
  return Object.freeze([...(paths as string[])])
}

/** Compiles validated paths. */
export function compilePaths(paths: readonly string[]): CompiledPaths {
  const keys = new Set<string>()
  const byLast = new Map<string, string[][]>()
  for (const path of paths) {
    const segments = segmentsOf(path)
    const last = segments.pop()!
    if (segments.length === 0) keys.add(last)
    else byLast.set(last, [...(byLast.get(last) ?? []), segments])
  }
  return { keys, byLast }
}

function endsWith(trail: readonly string[], parents: readonly string[], from: number): boolean {
  const count = parents.length - from
  if (trail.length < count) return false
  for (let i = 0; i < count; i++) {
    const want = parents[from + i]!
    if (want !== '*' && want !== trail[trail.length - count + i]) return false
  }
  return true
}

// `req.headers.x` also matches `headers.x` at the top of a logged object: that is how
// `logger.info({ headers: req.headers })` logs the request's headers.
function matches(trail: readonly string[], parents: readonly string[]): boolean {
  if (endsWith(trail, parents, 0)) return true
  return parents[0] === 'req' && trail.length === parents.length - 1 && endsWith(trail, parents, 1)
}

/** Whether the normalised `key`, under the normalised `trail`, is named by a compiled path. */
export function matchesPath(paths: CompiledPaths, key: string, trail: readonly string[]): boolean {
  if (paths.keys.has(key)) return true
  if (paths.byLast.get(key)?.some((parents) => matches(trail, parents))) return true
  return paths.byLast.get('*')?.some((parents) => matches(trail, parents)) === true
}

const QUERY = Object.freeze(['req', 'query'])

/**
 * Whether a query parameter is a credential: its name is one the log redacts in `req.query` (an
 * always-redacted key, or one of `paths`), so a URL must not show its value either.
 */
export function secretParams(paths: CompiledPaths): (name: string) => boolean {
  return (name) => {
    const key = normalizeKey(name)
    return isSecretKey(key) || matchesPath(paths, key, QUERY)
  }
}
