import { LOG_LEVELS, SILENT } from '../../runtime/logging/levels.js'
import { logger, loggerState } from '../../runtime/logging/logger.js'

function quiet(): void {}

/**
 * Silences shapeguard's logger (the request lines, errorHandler's errors, `logger.*`) until the
 * returned function is called, which puts back the level and methods it found. Nothing else is
 * touched: configureLogger's overrides and the mounted options stay as the user left them, so a
 * later mount resolves exactly as it would have. If the logger was reconfigured meanwhile
 * (configureLogger, a new shapeguard()), that newer configuration stands.
 * @example const restore = silenceLogs(); try { await run() } finally { restore() }
 */
export function silenceLogs(): () => void {
  const threshold = loggerState.threshold
  const methods = { ...logger }
  loggerState.threshold = SILENT
  for (const level of LOG_LEVELS) logger[level] = quiet
  return function restoreLogs() {
    const untouched =
      loggerState.threshold === SILENT && LOG_LEVELS.every((level) => logger[level] === quiet)
    if (!untouched) return
    loggerState.threshold = threshold
    Object.assign(logger, methods)
  }
}
