import type { ResolvedScheme } from '../../shared/security-scheme.js'
import { normalizeKey } from './redact.js'

// Where each location's credential shows in a logged request. A cookie shows in the `Cookie`
// header and in the parsed `cookies` and `signedCookies`, all three redacted whole already: its
// paths cover the same cookies copied elsewhere under those names.
const PARENTS = {
  header: ['req.headers'],
  query: ['req.query'],
  cookie: ['req.cookies', 'req.signedCookies'],
} as const

/**
 * The redact paths of the API keys `shapeguard({ auth })` reads, whatever their names
 * (`X-Client-Key`, `?key=`): appended to the app's own, they are redacted in every log line and
 * masked in URLs (`req.query` paths name the parameters URLs mask). Bearer and basic credentials
 * travel in `Authorization`, always redacted; a custom scheme reads the request as it likes, so
 * it names no location here.
 */
export function credentialPaths(schemes: ReadonlyMap<string, ResolvedScheme>): readonly string[] {
  const paths: string[] = []
  for (const scheme of schemes.values()) {
    if (scheme.kind !== 'apiKey') continue
    // Normalised as the redactor compares keys: a `.` in the name is no path separator.
    const key = normalizeKey(scheme.key)
    for (const parent of PARENTS[scheme.in]) paths.push(`${parent}.${key}`)
  }
  return Object.freeze(paths)
}
