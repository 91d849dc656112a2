import { checkInteger, checkNested } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import type { ResolvedOverload } from '../core/config.js'

/**
 * `shapeguard({ overload })`: the limits past which a request is answered 503 OVERLOADED before
 * any work. Shedding starts on the first sample past a limit and stops once the samples have
 * stayed within them for 10 intervals (1 s by default).
 */
export interface OverloadOptions {
  /**
   * Shed while the event loop's delay is above it, in milliseconds: the longest stall since the
   * last sample (`perf_hooks.monitorEventLoopDelay`), or how late the sample itself ran.
   */
  maxEventLoopDelayMs?: number
  /** Shed while the heap used (`process.memoryUsage().heapUsed`) is above it, in bytes. */
  maxHeapUsedBytes?: number
  /** The `Retry-After` header of an OVERLOADED answer, in seconds. @default 10 */
  retryAfter?: number
  /** How often the limits are sampled, in milliseconds (one sampler per process, at the shortest asked for). @default 100 */
  sampleIntervalMs?: number
}

const overloadKeys = ['maxEventLoopDelayMs', 'maxHeapUsedBytes', 'retryAfter', 'sampleIntervalMs']

/** Checks `overload`; undefined when it is not given. Throws naming `overload.<field>`. */
export function resolveOverload(given: OverloadOptions | undefined): ResolvedOverload | undefined {
  if (given === undefined) return undefined
  checkNested(given, 'overload', overloadKeys)
  const maxEventLoopDelayMs = checkInteger(
    given.maxEventLoopDelayMs,
    'overload.maxEventLoopDelayMs',
    1,
  )
  const maxHeapUsedBytes = checkInteger(
    given.maxHeapUsedBytes,
    'overload.maxHeapUsedBytes',
    1,
    Number.MAX_SAFE_INTEGER,
  )
  if (maxEventLoopDelayMs === undefined && maxHeapUsedBytes === undefined) {
    throw optionError(
      'SG_ERR_MISSING_OPTION',
      'shapeguard: overload: needs maxEventLoopDelayMs or maxHeapUsedBytes, e.g. { maxEventLoopDelayMs: 200 }',
    )
  }
  return Object.freeze({
    maxEventLoopDelayMs,
    maxHeapUsedBytes,
    retryAfter: checkInteger(given.retryAfter, 'overload.retryAfter', 0, 86_400) ?? 10,
    sampleIntervalMs:
      checkInteger(given.sampleIntervalMs, 'overload.sampleIntervalMs', 1, 60_000) ?? 100,
  })
}
