import type { SecurityScheme } from './security-scheme.js'

// Where the credentials of an app's security schemes travel: what a line that shows a request
// (the fuzzer's curl lines, the command's reports) masks.

/** The header, query parameter and cookie names that carry credentials (header names lower-cased). */
export interface SecretPlaces {
  readonly headers: ReadonlySet<string>
  readonly query: ReadonlySet<string>
  readonly cookies: ReadonlySet<string>
}

/**
 * The places of every scheme's credentials: `Authorization` always (bearer, basic, OAuth 2.0 and
 * OpenID Connect tokens, and any header a user sets by hand), each API key's header, query
 * parameter or cookie, and the extra headers given (a custom scheme's, `--header`'s).
 * @example secretPlaces({ key: { type: 'apiKey', in: 'query', name: 'api_key' } }).query // Set { 'api_key' }
 */
export function secretPlaces(
  schemes: Readonly<Record<string, SecurityScheme>> | undefined,
  headers: Iterable<string> = [],
): SecretPlaces {
  const places = {
    headers: new Set(['authorization', ...[...headers].map((h) => h.toLowerCase())]),
    query: new Set<string>(),
    cookies: new Set<string>(),
  }
  for (const scheme of Object.values(schemes ?? {})) {
    if (scheme.type !== 'apiKey') continue
    if (scheme.in === 'header') places.headers.add(scheme.name.toLowerCase())
    else if (scheme.in === 'query') places.query.add(scheme.name)
    else places.cookies.add(scheme.name)
  }
  return places
}
