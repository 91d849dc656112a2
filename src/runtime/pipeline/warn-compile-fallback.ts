import type { SchemaAdapter } from '../../engine/adapter.js'
import type { PartValidator } from '../../engine/compile/compile.js'
import { debugFromEnv } from '../core/config.js'
import { logger } from '../logging/logger.js'

/**
 * In development, logs once per route part whose schema the compiler could not compile: it still
 * answers every request right (its library's own parser runs), only slower, and it is a bug to
 * report. The message names the part and library and carries the compiler's error, never data.
 * @example warnCompileFallback('body', adapter, compile(adapter))
 */
export function warnCompileFallback(
  part: string,
  adapter: SchemaAdapter,
  validator: PartValidator,
): void {
  if (validator.fallback === undefined || !debugFromEnv()) return
  logger.warn(
    `shapeguard: the ${part} schema (${adapter.library}) could not be compiled and runs on its library's parser only (same answers, slower); please report it: ${validator.fallback.message}`,
  )
}
