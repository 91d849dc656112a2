import { optionError } from '../../shared/error-codes.js'
import { isObject } from '../../shared/is-object.js'
import type { GuardLimits, ResolvedConfig } from '../core/config.js'

export type { GuardLimits }

/** The default limits, used where neither the route nor `shapeguard()` sets one. */
export const defaultLimits: GuardLimits = Object.freeze({
  maxDepth: 20,
  maxArrayLength: 1000,
  maxStringLength: 10000,
})

// The body walk recurses once per level and never past maxDepth; this bound keeps that recursion
// far from the stack limit whatever the host has already put on the stack.
const maxDepthCeiling = 1000

const names = ['maxDepth', 'maxArrayLength', 'maxStringLength'] as const

function check(limits: unknown, prefix: string): Partial<GuardLimits> | undefined {
  if (limits === undefined) return undefined
  if (!isObject(limits)) {
    throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: ${prefix}: must be an object`)
  }
  for (const key of Object.keys(limits)) {
    if (!(names as readonly string[]).includes(key)) {
      throw optionError(
        'SG_ERR_UNKNOWN_OPTION',
        `shapeguard: ${prefix}: ${key} is not an option (maxDepth, maxArrayLength, maxStringLength)`,
      )
    }
    const value = (limits as Record<string, unknown>)[key]
    if (value === undefined) continue
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      throw optionError(
        'SG_ERR_INVALID_OPTION',
        `shapeguard: ${prefix}.${key}: must be a positive integer`,
      )
    }
    if (key === 'maxDepth' && value > maxDepthCeiling) {
      throw optionError(
        'SG_ERR_INVALID_OPTION',
        `shapeguard: ${prefix}.maxDepth: must be at most ${maxDepthCeiling}`,
      )
    }
  }
  return limits as Partial<GuardLimits>
}

/**
 * Route limits over global limits over the defaults; throws a `TypeError` naming the option at
 * mount time for anything but a positive integer (`maxDepth` at most 1000).
 * @param global `validation.limits` of `shapeguard()`; default none
 * @param route `limits` of the route; default none
 * @example resolveLimits({ maxDepth: 10 }, { maxArrayLength: 50 }) // { maxDepth: 10, maxArrayLength: 50, maxStringLength: 10000 }
 */
export function resolveLimits(
  global?: Partial<GuardLimits>,
  route?: Partial<GuardLimits>,
): GuardLimits {
  const g = check(global, 'validation.limits')
  const r = check(route, 'limits')
  if (g === undefined && r === undefined) return defaultLimits
  return Object.freeze({
    maxDepth: r?.maxDepth ?? g?.maxDepth ?? defaultLimits.maxDepth,
    maxArrayLength: r?.maxArrayLength ?? g?.maxArrayLength ?? defaultLimits.maxArrayLength,
    maxStringLength: r?.maxStringLength ?? g?.maxStringLength ?? defaultLimits.maxStringLength,
  })
}

/**
 * The limits of a route's requests under each app: the app's own when the route sets none, else
 * the route's over the app's, merged once per shapeguard() instance. Checks `routeLimits` now.
 */
export function routeLimitsFor(
  routeLimits: Partial<GuardLimits> | undefined,
): (config: ResolvedConfig) => GuardLimits {
  if (routeLimits === undefined) return (config) => config.validation.limits
  resolveLimits(undefined, routeLimits)
  const merged = new WeakMap<ResolvedConfig, GuardLimits>()
  return (config) => {
    let limits = merged.get(config)
    if (limits === undefined) {
      limits = resolveLimits(config.validation.limits, routeLimits)
      merged.set(config, limits)
    }
    return limits
  }
}
