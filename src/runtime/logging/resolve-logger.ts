import { logger } from './logger.js'
import type { Logger } from './types.js'

/**
 * The logger an error or warning goes to: the one given to `errorHandler({logger})`, else the
 * shared singleton, which every `shapeguard()` instance (and its `logger.instance`) writes
 * through, so `configureLogger()`'s level and silence and the redaction always apply.
 */
export function resolveLogger(explicit: Logger | undefined): Logger {
  return explicit ?? logger
}
