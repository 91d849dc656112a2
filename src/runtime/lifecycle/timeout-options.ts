import { checkInteger, checkNested } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import type { ResolvedTimeout } from '../core/config.js'

/** A route's time limits (`timeout`), in milliseconds; a number is `{ handler }`. */
export interface TimeoutOptions {
  /**
   * From the route's first step to the first byte of its answer: async validation, `transform`
   * and the handler. When it passes, `req.signal` aborts and the client gets 503 HANDLER_TIMEOUT.
   */
  handler?: number
  /** A stream's longest wait between two events (heartbeats do not count); it then ends with a HANDLER_TIMEOUT error event. */
  idle?: number
  /** A stream's whole life from its first byte; it then ends with a HANDLER_TIMEOUT error event. */
  total?: number
  /** The `Retry-After` header of a HANDLER_TIMEOUT answer, in seconds. @default 5 */
  retryAfter?: number
}

/** `timeout` of a route or of `shapeguard()`: milliseconds for the handler, or each limit. */
export type TimeoutOption = number | TimeoutOptions

const timeoutKeys = ['handler', 'idle', 'total', 'retryAfter'] as const
const defaultRetryAfter = 5

/**
 * Checks a `timeout` option and fills it in over `base` (the app's, for a route), field by field;
 * undefined when neither sets a limit. Throws naming `<where>.<field>`.
 */
export function resolveTimeout(
  given: TimeoutOption | undefined,
  where: string,
  base?: ResolvedTimeout,
): ResolvedTimeout | undefined {
  if (given === undefined) return base
  const options: TimeoutOptions = typeof given === 'number' ? { handler: given } : given
  if (typeof given !== 'number') {
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      throw optionError(
        'SG_ERR_INVALID_OPTION',
        `shapeguard: ${where}: must be milliseconds or { handler, idle, total, retryAfter }`,
      )
    }
    checkNested(given, where, timeoutKeys)
  }
  const handler = checkInteger(
    options.handler,
    typeof given === 'number' ? where : `${where}.handler`,
    1,
  )
  const idle = checkInteger(options.idle, `${where}.idle`, 1)
  const total = checkInteger(options.total, `${where}.total`, 1)
  const retryAfter = checkInteger(options.retryAfter, `${where}.retryAfter`, 0, 86_400)
  return Object.freeze({
    handler: handler ?? base?.handler,
    idle: idle ?? base?.idle,
    total: total ?? base?.total,
    retryAfter: retryAfter ?? base?.retryAfter ?? defaultRetryAfter,
  })
}
