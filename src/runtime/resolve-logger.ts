import { logger } from './logging/logger.js'
import type { Logger } from './logging/types.js'

/** The logger an error or warning goes to: explicit, else the one given to shapeguard(), else the shared singleton. */
export function resolveLogger(
  explicit: Logger | undefined,
  config: { readonly logger: Logger | undefined } | undefined,
): Logger {
  return explicit ?? config?.logger ?? logger
}
