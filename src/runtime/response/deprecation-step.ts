import type { ResolvedDeprecation } from '../../shared/deprecation.js'
import type { Step } from '../core/step.js'
import { routePatternOf } from '../host/route-pattern.js'
import { logger } from '../logging/logger.js'

/**
 * The first step of a deprecated route: `Deprecation`, `Sunset` and a `Link` to its docs on every
 * answer it gives, an error's as well as a success's (they are set before anything can answer);
 * in development, one warning line per call, naming the route as registered (never a value).
 */
export function deprecationStep(d: ResolvedDeprecation): Step {
  const { deprecation, sunset, link } = d
  const note = sunset === undefined ? '' : ` (sunset ${sunset})`
  return function deprecated(req, res, config) {
    res.setHeader('Deprecation', deprecation)
    if (sunset !== undefined) res.setHeader('Sunset', sunset)
    if (link !== undefined) res.append('Link', link)
    if (config.debug) {
      // Outside a route (`validate()` in `use()`) there is no pattern, and a path may hold values.
      const endpoint = routePatternOf(req) ?? '(a path of use())'
      try {
        logger.warn(
          { method: req.method, endpoint },
          `shapeguard: ${req.method} ${endpoint} is deprecated${note}: its clients should move off it`,
        )
      } catch {
        // A logger that throws loses the warning, never the answer.
      }
    }
    return undefined
  }
}
