import type { ResolvedConfig, ResolvedTimeout } from '../core/config.js'
import { resolveTimeout, type TimeoutOption } from './timeout-options.js'

/**
 * A route's time limits over each app's `timeout`: checked now (throws naming `where`), merged
 * once per app. A route's plan is compiled before it meets an app; the merge is kept by the
 * app's resolved configuration, as the exposure options' is.
 * @param where the option as errors name it, e.g. `validate(): timeout`
 */
export function routeTimeout(
  given: TimeoutOption | undefined,
  where: string,
): (config: ResolvedConfig) => ResolvedTimeout | undefined {
  if (given === undefined) return (config) => config.timeout
  resolveTimeout(given, where)
  const merged = new WeakMap<ResolvedConfig, ResolvedTimeout>()
  return (config) => {
    let limits = merged.get(config)
    if (limits === undefined) {
      // Given, so never undefined.
      limits = resolveTimeout(given, where, config.timeout)!
      merged.set(config, limits)
    }
    return limits
  }
}
