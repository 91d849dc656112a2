/** A log level, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

export const LOG_LEVELS: readonly LogLevel[] = Object.freeze(['debug', 'info', 'warn', 'error'])

export const LEVEL_VALUE: Readonly<Record<LogLevel, number>> = Object.freeze({
  debug: 0,
  info: 1,
  warn: 2,
  error: 3,
})

/** A threshold above every level: nothing is written. */
export const SILENT = 4

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(LEVEL_VALUE, value)
}

/** Level of the response line: 5xx error, 4xx warn, slow warn, else info. */
export function levelForStatus(status: number, slow: boolean): LogLevel {
  if (status >= 500) return 'error'
  if (status >= 400 || slow) return 'warn'
  return 'info'
}
