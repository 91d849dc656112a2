import { logger } from './logger.js'
import type { Logger } from './types.js'

/**
 * The logger an error or warning goes to: the one given to `errorHandler({logger})`, else
 * `logger`, which inside a request writes through its `shapeguard()` backend (and its
 * `logger.instance`), so `configureLogger()`'s level and silence and the redaction always apply.
 */
export function resolveLogger(explicit: Logger | undefined): Logger {
  return explicit ?? logger
}
