import { parse } from 'node:querystring'
import { isAppError } from '../../runtime/core/app-error.js'
import {
  type GuardLimits,
  guardBody,
  guardQuery,
  sanitizeParams,
} from '../../runtime/guards/index.js'

/** The parts of a request as they travel: path parameters, query string, JSON body. */
export interface WireParts {
  readonly params: Readonly<Record<string, string>>
  readonly query: string
  readonly body: string | undefined
}

/**
 * Whether the pre-parse guards answer a request 400 before its schemas run (a limit broken, a
 * `__proto__` key, a repeated query key), decided by the runtime's own guards with the route's
 * limits on the parts as the server parses them.
 * @example guardsRefuse({ params: {}, query: '', body: '{"a":[…1001 items]}' }, limits, new Set()) // true
 */
export function guardsRefuse(
  parts: WireParts,
  limits: GuardLimits,
  arrayKeys: ReadonlySet<string>,
): boolean {
  try {
    if (parts.body !== undefined) guardBody(JSON.parse(parts.body), limits)
    if (parts.query !== '') guardQuery({ ...parse(parts.query) }, arrayKeys, limits)
    sanitizeParams({ ...parts.params }, limits)
    return false
  } catch (error) {
    return isAppError(error) && error.statusCode === 400
  }
}
