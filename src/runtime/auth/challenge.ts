import type { ResolvedScheme } from '../../shared/security-scheme.js'

/**
 * The `WWW-Authenticate` challenge of one scheme: `Bearer realm="api"` (RFC 6750, with
 * `error="invalid_token"` when a token was sent and refused), `Basic realm="api", charset="UTF-8"`
 * (RFC 7617), for an API key `ApiKey realm="api", in="header", name="x-api-key"` (no RFC defines
 * one; this names where the key goes, as a custom scheme's default does), a custom scheme's own.
 */
export function challengeOf(scheme: ResolvedScheme, invalidToken: boolean): string {
  switch (scheme.kind) {
    case 'bearer':
      return `Bearer realm="${scheme.realm}"${invalidToken ? ', error="invalid_token"' : ''}`
    case 'basic':
      return `Basic realm="${scheme.realm}", charset="UTF-8"`
    case 'apiKey': {
      const name = scheme.document.type === 'apiKey' ? scheme.document.name : scheme.key
      return `ApiKey realm="api", in="${scheme.in}", name="${name}"`
    }
    default:
      return scheme.challenge
  }
}

/** One challenge per scheme, each once, joined by `, ` as one header value. */
export function challenges(schemes: readonly ResolvedScheme[], invalidToken: boolean): string {
  return [...new Set(schemes.map((scheme) => challengeOf(scheme, invalidToken)))].join(', ')
}
