import { checkSecurity } from '../../shared/resolve-schemes.js'
import type { ResolvedScheme, SecurityRequirement } from '../../shared/security-scheme.js'
import type { ResolvedConfig } from '../core/config.js'
import { challenges } from './challenge.js'

/** A route's security resolved against one app's schemes: what a request of it must pass. */
export interface AuthPlan {
  /** Tried in order; each holds the schemes that must all pass. */
  readonly alternatives: readonly (readonly ResolvedScheme[])[]
  /** `WWW-Authenticate` of a 401. */
  readonly challenge: string
  /** The same, when a bearer token was sent: its challenges say `error="invalid_token"`. */
  readonly invalidToken: string
  /** Whether a scheme of the route reads a bearer token. */
  readonly bearer: boolean
  /** Whether a scheme of the route reads `Authorization` (bearer or basic). */
  readonly authorization: boolean
}

/**
 * Resolves a security requirement against the app's `auth`; undefined for a public route (none,
 * or `[]`). A name that is not a scheme throws the SG_ERR_UNKNOWN_NAME TypeError: a request of a
 * route whose scheme is unknown is answered 500, never let through.
 */
export function planAuth(
  security: SecurityRequirement | undefined,
  config: ResolvedConfig,
): AuthPlan | undefined {
  const { schemes, defaultSecurity } = config.auth
  const requirement = security ?? defaultSecurity
  if (requirement === undefined || requirement.length === 0) return undefined
  checkSecurity(requirement, security === undefined ? 'defaultSecurity' : 'security', schemes)
  const alternatives = requirement.map((item) =>
    Object.freeze((typeof item === 'string' ? [item] : item).map((name) => schemes.get(name)!)),
  )
  const all = alternatives.flat()
  return Object.freeze({
    alternatives: Object.freeze(alternatives),
    challenge: challenges(all, false),
    invalidToken: challenges(all, true),
    bearer: all.some((scheme) => scheme.kind === 'bearer'),
    authorization: all.some((scheme) => scheme.kind === 'bearer' || scheme.kind === 'basic'),
  })
}
