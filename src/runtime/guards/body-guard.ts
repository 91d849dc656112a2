import { limitError, Violation } from './guard-errors.js'
import type { GuardLimits } from './limits.js'
import { startWalk, walkValue } from './walk.js'

/**
 * One pass over a parsed body: checks `__proto__` and the limits on the body as received, and
 * returns it cleaned (`constructor`/`prototype` keys removed, strings and keys sanitised).
 * When a body breaks several rules the answer is the first in this precedence, wherever each
 * occurs: PROTO_POLLUTION > BODY_TOO_DEEP > BODY_ARRAY_TOO_LARGE > STRING_TOO_LONG. Nothing past
 * `maxDepth` is looked at, so a `__proto__` key nested deeper gives BODY_TOO_DEEP.
 * @param limits from `resolveLimits`
 * @example req.body = guardBody(req.body, resolveLimits(config.validation?.limits, route.limits))
 */
export function guardBody(body: unknown, limits: GuardLimits): unknown {
  const w = startWalk('Body', limits)
  const cleaned = walkValue(body, 1, w)
  if (w.worst !== Violation.none) throw limitError(w.worst, 'Body', limits)
  return cleaned
}
