import { checkNested } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import type { ResolvedConfig } from '../core/config.js'

/**
 * `cookies` options of `shapeguard()`. Cookies are signed as cookie-parser signs them
 * (`s:<value>.<signature>`, HMAC-SHA256), so either reads what the other wrote; keep a secret being
 * rotated out in the list until the cookies it signed expire.
 */
export interface CookieOptions {
  /**
   * Secrets of signed cookies, current first: the first signs (`req.secret`, as `res.cookie(name,
   * value, { signed: true })` uses it), each verifies a route's `signedCookies` (rotation).
   * @default []
   */
  secrets?: readonly string[]
}

const none: ResolvedConfig['cookies'] = Object.freeze({ secrets: Object.freeze([]) })

/** Checks `cookies` at mount: `secrets`, when given, is a non-empty array of non-empty strings. */
export function resolveCookieOptions(
  options: CookieOptions | undefined,
): ResolvedConfig['cookies'] {
  checkNested(options, 'cookies', ['secrets'])
  const secrets: unknown = options?.secrets
  if (secrets === undefined) return none
  if (!Array.isArray(secrets) || secrets.length === 0) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      'shapeguard: cookies.secrets: must be a non-empty array of strings, the current secret first',
    )
  }
  secrets.forEach((secret: unknown, i) => {
    if (typeof secret !== 'string' || secret === '') {
      throw optionError(
        'SG_ERR_INVALID_OPTION',
        `shapeguard: cookies.secrets[${i}]: must be a non-empty string`,
      )
    }
  })
  return Object.freeze({ secrets: Object.freeze([...(secrets as string[])]) })
}
