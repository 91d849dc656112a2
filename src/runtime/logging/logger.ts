import { checkKnownKeys } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import { isObject } from '../../shared/is-object.js'
import { activeSpan } from '../telemetry/request-span.js'
import { traceFields } from '../telemetry/trace-fields.js'
import { maskQuery } from '../telemetry/url-query.js'
import { AppLog, processLog } from './app-log.js'
import { isLogLevel, LEVEL_VALUE, type LogLevel } from './levels.js'
import { lineLost, resetLostLines } from './lost-lines.js'
import { type ResolvedLoggerOptions, resolveLoggerOptions } from './options.js'
import { printable } from './printable.js'
import { REDACTED } from './redact.js'
import { requestIdOf } from './request-log-state.js'
import { currentScope, type RequestScope } from './request-scope.js'
import { resolveBackend } from './resolve-backend.js'
import type { Logger, LogMethod, LogSink } from './types.js'

/** `configureLogger()` options. */
export interface ConfigureLoggerOptions {
  /** Lowest level written, for every `shapeguard()` instance. @default unchanged (each app's `logger.level`) */
  level?: LogLevel
  /** Write nothing at all. @default unchanged (each app's `logger.silent`) */
  silent?: boolean
}

// Where `logger` writes outside any request: the last shapeguard() called, or the defaults.
let fallback: AppLog | undefined

/** The backend of lines written outside a request: the last made, else the defaults (NODE_ENV read now). */
export function defaultLog(): AppLog {
  if (fallback === undefined) {
    const options = resolveLoggerOptions(undefined, process.env.NODE_ENV !== 'production')
    fallback = new AppLog(resolveBackend(options), options)
  }
  return fallback
}

/** Makes `sink` an app's backend, with its level, silence and redaction; the default from now on. */
export function installSink(sink: LogSink, options: ResolvedLoggerOptions): AppLog {
  fallback = new AppLog(sink, options)
  return fallback
}

// A message's credentials in a URL are masked (`?api_key=[REDACTED]`), as in logged objects.
// Pretty lines keep newlines for the request logger's continuation lines, so a message given
// here is escaped whole: one call, one line.
function text(app: AppLog, message: string): string {
  const masked = maskQuery(message, app.isSecretParam, REDACTED)
  return app.sink.pretty ? printable(masked) : masked
}

// What a line written for a request carries first (the caller's own fields win): its ID, and
// the trace IDs of the active OpenTelemetry span, else of its valid traceparent header. Outside
// a request, the active span's only. A new object on every call, so the line can take it.
function scopeFields(app: AppLog, scope: RequestScope | undefined): object | undefined {
  const trace = traceFields(activeSpan(), scope?.req.headers)
  const id = scope !== undefined && app.logRequestId ? requestIdOf(scope.req) : ''
  if (id === '') return trace
  return trace === undefined ? { requestId: id } : { requestId: id, ...trace }
}

/**
 * Writes one line through `app`'s backend, for `scope`'s request if any. A backend that throws
 * (a method, a getter, a throw of anything) loses its line, never the request or the process:
 * the caller may be a handler, a timer or an 'error' listener.
 */
export function writeLine(
  app: AppLog,
  scope: RequestScope | undefined,
  level: LogLevel,
  a: unknown,
  b: unknown,
): void {
  try {
    if (LEVEL_VALUE[level] < app.threshold()) return
    const { sink } = app
    const target = sink.logger
    const fields = scopeFields(app, scope) as Record<string, unknown> | undefined
    if (a !== null && typeof a === 'object') {
      const redacted = app.redact(a) as Record<string, unknown>
      const meta = fields === undefined ? redacted : { ...fields, ...redacted }
      const message = typeof b === 'string' ? text(app, b) : undefined
      try {
        if (message !== undefined) target[level](meta, message)
        else target[level](meta)
      } catch {
        // A backend that cannot write this object (pino 9.0 throws on an own `__proto__` key)
        // still gets the line, without the object.
        target[level]({ ...fields, logError: 'the logger could not write this object' }, message)
      }
      return
    }
    const message = text(app, typeof a === 'string' ? a : String(a))
    if (fields === undefined) target[level](message)
    else target[level](fields, message)
  } catch {
    lineLost()
  }
}

/**
 * A logger whose lines are written for the scope `scopeOf()` gives when each line is written:
 * through its app's backend, else (no scope, or a scope no `shapeguard()` made) the default one.
 */
export function scopedLogger(scopeOf: () => RequestScope | undefined): Logger {
  const method = (level: LogLevel) =>
    ((a: unknown, b?: unknown) => {
      const scope = scopeOf()
      let app = scope?.app
      if (app === undefined) {
        try {
          app = defaultLog()
        } catch {
          lineLost()
          return
        }
      }
      writeLine(app, scope, level, a, b)
    }) as LogMethod
  return {
    debug: method('debug'),
    info: method('info'),
    warn: method('warn'),
    error: method('error'),
  }
}

/**
 * The shapeguard logger: `logger.info('message')` or `logger.info({ userId }, 'message')`.
 * Inside a request it writes through that request's `shapeguard()` backend, with its `requestId`
 * (and trace IDs) on the line; outside any request, through the last `shapeguard()` called.
 * @example logger.warn({ orderId }, 'payment retried')
 */
export const logger: Logger = scopedLogger(currentScope)

/**
 * Reconfigures the logging of every `shapeguard()` instance in the process, whenever it is called:
 * the values given win over each app's own `logger` options until changed again.
 * @param options `level` and/or `silent`; omitted fields keep their current value, any other key
 * throws (a logger instance is given to `shapeguard({ logger: { instance } })`)
 * @example configureLogger({ level: 'error' })
 */
export function configureLogger(options: ConfigureLoggerOptions = {}): void {
  if (!isObject(options)) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      'shapeguard: configureLogger(): options must be an object',
    )
  }
  // Only the level and silence change here: a backend is chosen where the request logger is
  // mounted (shapeguard({ logger })).
  if (Object.hasOwn(options, 'instance')) {
    throw optionError(
      'SG_ERR_MISPLACED_OPTION',
      'shapeguard: configureLogger(): takes level and silent, a logger instance goes in shapeguard({ logger: { instance } })',
    )
  }
  checkKnownKeys(options, ['level', 'silent'], 'configureLogger()')
  if (options.level !== undefined && !isLogLevel(options.level)) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: configureLogger(): level must be debug, info, warn or error (got ${JSON.stringify(options.level)})`,
    )
  }
  if (options.silent !== undefined && typeof options.silent !== 'boolean') {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      'shapeguard: configureLogger(): silent must be a boolean',
    )
  }
  if (options.level !== undefined) processLog.level = options.level
  if (options.silent !== undefined) processLog.silent = options.silent
  // The user's word is the last: a route fuzzer's mute ends here.
  processLog.muted = undefined
  defaultLog()
}

/**
 * Mutes every app's logging (request lines, errorHandler's, `logger`'s) until the returned
 * function is called; that puts it back unless `configureLogger()` has spoken meanwhile.
 */
export function muteLogs(): () => void {
  if (processLog.muted !== undefined) return () => {}
  const mute = {}
  processLog.muted = mute
  return () => {
    if (processLog.muted === mute) processLog.muted = undefined
  }
}

/** Test hook: forget every mount and override, back to the lazy defaults. */
export function resetLogger(): void {
  fallback = undefined
  processLog.level = undefined
  processLog.silent = undefined
  processLog.muted = undefined
  resetLostLines()
}
