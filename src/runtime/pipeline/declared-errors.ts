import { errorCodes, optionError } from '../../shared/error-codes.js'
import {
  bodyMethods,
  defaultErrorStatuses,
  timeLimits,
  unavailableCodes,
} from '../../shared/error-statuses.js'
import type { ResolvedConfig } from '../core/config.js'
import type { AnyRoute } from './route-types.js'

// The codes a route may answer without a development warning: those of its `errors`, and every
// code shapeguard itself sends with a status the route documents by default.

const registry = Object.values(errorCodes)

/**
 * The codes of a route's `errors`, checked once, when the route is defined: a code of the
 * registry, or a factory made by `AppError.define()` (its `code`). Throws a TypeError naming the
 * entry at fault.
 * @param name the function given the route, as errors name it
 */
export function routeErrorCodes(errors: unknown, name: string): readonly string[] {
  if (errors === undefined) return []
  if (!Array.isArray(errors))
    throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: ${name}: errors must be an array`)
  return errors.map((entry: unknown, i) => {
    if (typeof entry === 'string') {
      if (Object.hasOwn(errorCodes, entry)) return entry
      throw optionError(
        'SG_ERR_UNKNOWN_NAME',
        `shapeguard: ${name}: errors[${i}]: ${JSON.stringify(entry)} is not a code of the registry, declare a code of your own with AppError.define()`,
      )
    }
    const code = typeof entry === 'function' ? (entry as { code?: unknown }).code : undefined
    if (typeof code === 'string' && code !== '') return code
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: ${name}: errors[${i}]: must be a registry code ('NOT_FOUND') or a factory made by AppError.define()`,
    )
  })
}

// By route, one set per combination of what a request decides (its method's body, the app's
// default security, timeout and overload): built on first use, in development only.
const sets = new WeakMap<object, Map<number, ReadonlySet<string>>>()

/**
 * The codes a route declares for a request of `method` under `config`: its own `codes`, and the
 * registry's codes of each status it documents by default (400, 413/415 with a body, 422, 429
 * with a rate limit, 401/403 when secured, 500), and the 503 codes that apply: RATE_LIMIT_UNAVAILABLE
 * when the limit fails closed, HANDLER_TIMEOUT with a `timeout` (the route's or the app's; a
 * stream's idle or total limit ends it with that code too), OVERLOADED with `overload`.
 */
export function declaredCodes(
  route: AnyRoute,
  codes: readonly string[],
  method: string,
  config: ResolvedConfig,
): ReadonlySet<string> {
  const security = route.security ?? config.auth.defaultSecurity ?? []
  const secured = security.length > 0
  const body = route.body !== undefined || bodyMethods.has(method.toLowerCase())
  const limits = timeLimits(route.timeout, config.timeout)
  const timed = limits.handler || limits.stream
  const overloaded = config.overload !== undefined
  const key = (secured ? 1 : 0) | (body ? 2 : 0) | (timed ? 4 : 0) | (overloaded ? 8 : 0)
  let byKey = sets.get(route)
  if (byKey === undefined) {
    byKey = new Map<number, ReadonlySet<string>>()
    sets.set(route, byKey)
  }
  let set = byKey.get(key)
  if (set === undefined) {
    const cases = {
      secured,
      body,
      files: route.files !== undefined,
      rateLimited: route.rateLimit !== undefined,
      failsClosed: route.rateLimit?.store !== undefined && route.rateLimit.failOpen === false,
      timed,
      overloaded,
    }
    const statuses = defaultErrorStatuses(cases)
    const own = registry
      .filter((e) => e.status !== 503 && statuses.includes(e.status))
      .map((e) => e.code)
    set = new Set<string>([...own, ...unavailableCodes(cases), ...codes])
    byKey.set(key, set)
  }
  return set
}
