import { dataField } from '../core/safe-read.js'
import { logger } from '../logging/logger.js'

/** A store that failed while the route lets requests through (`failOpen`). */
export class StoreFailure extends Error {
  override readonly name = 'StoreFailure'
}

const INTERVAL_MS = 60_000
let lastReport = Number.NEGATIVE_INFINITY
let unreported = 0

// What a store's error says about itself, never its message: a client's key may be quoted there.
function describe(failure: StoreFailure): Record<string, unknown> {
  const cause = failure.cause
  const name = cause instanceof Error ? dataField(cause, 'name') : undefined
  const code = typeof cause === 'object' && cause !== null ? dataField(cause, 'code') : undefined
  return {
    failure: failure.message,
    ...(typeof name === 'string' ? { errorName: name } : {}),
    ...(typeof code === 'string' || typeof code === 'number' ? { errorCode: code } : {}),
  }
}

/**
 * Logs a store failure that let its request through, at most once a minute per process, with how
 * many requests passed unlimited since the last report.
 */
export function reportStoreFailure(failure: StoreFailure, now = Date.now()): void {
  unreported++
  if (now - lastReport < INTERVAL_MS) return
  const count = unreported
  lastReport = now
  unreported = 0
  logger.error(
    { ...describe(failure), requestsLetThrough: count },
    'shapeguard rateLimit: the store failed; requests pass unlimited until it answers again (failOpen)',
  )
}

/** Forgets when the last failure was logged (tests). */
export function resetStoreFailureReports(): void {
  lastReport = Number.NEGATIVE_INFINITY
  unreported = 0
}
