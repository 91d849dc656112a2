import { muteLogs } from '../../runtime/logging/logger.js'

/**
 * Silences shapeguard's logging in every app (the request lines, errorHandler's errors, `logger.*`)
 * until the returned function is called. Nothing else is touched: configureLogger's overrides and
 * each app's options stay as the user left them. If configureLogger is called meanwhile, its
 * configuration stands.
 * @example const restore = silenceLogs(); try { await run() } finally { restore() }
 */
export function silenceLogs(): () => void {
  return muteLogs()
}
