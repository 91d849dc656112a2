import type { SecurityRequirement } from '../../shared/security-scheme.js'
import type { Step } from '../core/step.js'

/**
 * The route's security, enforced: its own `security`, else the app's `defaultSecurity`.
 * (Foundation: the enforcement lands with the auth helper.)
 */
export function authStep(security: SecurityRequirement | undefined): Step {
  return function authenticate(_req, _res, config) {
    const requirement = security ?? config.auth.defaultSecurity
    if (requirement === undefined || requirement.length === 0) return undefined
    return undefined
  }
}
