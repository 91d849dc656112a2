import { checkSecurity, resolveSchemes } from '../../shared/resolve-schemes.js'
import type { ResolvedConfig } from '../core/config.js'

/** `shapeguard()`'s `auth` and `defaultSecurity`, checked and resolved once, at mount. */
export function resolveAuth(auth: unknown, defaultSecurity: unknown): ResolvedConfig['auth'] {
  const schemes = resolveSchemes(auth, 'auth')
  checkSecurity(defaultSecurity, 'defaultSecurity', schemes)
  return Object.freeze({
    schemes,
    defaultSecurity:
      defaultSecurity === undefined ? undefined : Object.freeze(structuredClone(defaultSecurity)),
  })
}
