import { checkKnownKeys } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import { logTraceFields } from '../telemetry/trace-context.js'
import { isLogLevel, LEVEL_VALUE, LOG_LEVELS, type LogLevel, SILENT } from './levels.js'
import { lineLost, resetLostLines } from './lost-lines.js'
import { type ResolvedLoggerOptions, resolveLoggerOptions } from './options.js'
import { printable } from './printable.js'
import { createRedactor, type Redactor } from './redactor.js'
import { resolveBackend } from './resolve-backend.js'
import type { Logger, LogMethod, LogSink } from './types.js'

/** `configureLogger()` options. */
export interface ConfigureLoggerOptions {
  /** Lowest level written, for every `shapeguard()` instance. @default unchanged (the mounted `logger.level`) */
  level?: LogLevel
  /** Write nothing at all. @default unchanged (the mounted `logger.silent`) */
  silent?: boolean
}

/** What the singleton writes through right now; the request logger reads it per request. */
export const loggerState: { sink: LogSink | undefined; threshold: number } = {
  sink: undefined,
  threshold: 0,
}

let mounted: { level: LogLevel; silent: boolean; redact: Redactor } | undefined
const overrides: ConfigureLoggerOptions = {}

function noop(): void {}

// Pretty lines keep newlines for the request logger's continuation lines, so a message given
// here is escaped whole: one call, one line.
function text(sink: LogSink, message: string): string {
  return sink.pretty ? printable(message) : message
}

// Inside a request with an OpenTelemetry span active, or a valid traceparent header, a line
// carries its trace IDs first (the caller's own fields win); the fields object is new on every
// call, so it can take them.
function emit(level: LogLevel, a: unknown, b: unknown): void {
  const sink = loggerState.sink ?? ensureSink()
  const target = sink.logger
  const trace = logTraceFields() as Record<string, unknown> | undefined
  if (a !== null && typeof a === 'object') {
    const redacted = mounted!.redact(a) as Record<string, unknown>
    const meta = trace === undefined ? redacted : { ...trace, ...redacted }
    const message = typeof b === 'string' ? text(sink, b) : undefined
    try {
      if (message !== undefined) target[level](meta, message)
      else target[level](meta)
    } catch {
      // A backend that cannot write this object (pino 9.0 throws on an own `__proto__` key)
      // still gets the line, without the object.
      target[level]({ ...trace, logError: 'the logger could not write this object' }, message)
    }
    return
  }
  const message = text(sink, typeof a === 'string' ? a : String(a))
  if (trace === undefined) target[level](message)
  else target[level](trace, message)
}

// A backend that throws (a method, a getter, a throw of anything) loses its line, never the
// request or the process: the caller may be a handler, a timer or an 'error' listener.
function emitter(level: LogLevel): LogMethod {
  return ((a: unknown, b?: unknown) => {
    try {
      emit(level, a, b)
    } catch {
      lineLost()
    }
  }) as LogMethod
}

const emitters = Object.fromEntries(LOG_LEVELS.map((l) => [l, emitter(l)])) as Record<
  LogLevel,
  LogMethod
>

// Before anything is configured, the first call resolves the defaults (NODE_ENV read then).
function bootstrap(level: LogLevel): LogMethod {
  return ((a: unknown, b?: unknown) => {
    try {
      ensureSink()
    } catch {
      lineLost()
      return
    }
    ;(logger[level] as (a: unknown, b?: unknown) => void)(a, b)
  }) as LogMethod
}

/**
 * The shapeguard logger: `logger.info('message')` or `logger.info({ userId }, 'message')`.
 * It is the instance every `shapeguard()` writes through; disabled levels are no-ops.
 * @example logger.warn({ orderId }, 'payment retried')
 */
export const logger: Logger = {
  debug: bootstrap('debug'),
  info: bootstrap('info'),
  warn: bootstrap('warn'),
  error: bootstrap('error'),
}

// Disabled levels become no-ops (pino's way) so a filtered call costs one function call.
function apply(): void {
  const silent = overrides.silent ?? mounted!.silent
  const threshold = silent ? SILENT : LEVEL_VALUE[overrides.level ?? mounted!.level]
  loggerState.threshold = threshold
  for (const level of LOG_LEVELS) {
    logger[level] = LEVEL_VALUE[level] >= threshold ? emitters[level] : noop
  }
}

function ensureSink(): LogSink {
  if (loggerState.sink === undefined) {
    const options = resolveLoggerOptions(undefined, process.env.NODE_ENV !== 'production')
    installSink(resolveBackend(options), options)
  }
  return loggerState.sink!
}

/** Makes `sink` the singleton's backend, with a mount's level, silence and redaction. */
export function installSink(sink: LogSink, options: ResolvedLoggerOptions): void {
  loggerState.sink = sink
  mounted = {
    level: options.level,
    silent: options.silent,
    redact: createRedactor(options.redact),
  }
  apply()
}

/**
 * Reconfigures the one logger every `shapeguard()` instance writes through, whenever it is
 * called; the values given win over the mounted options until changed again.
 * @param options `level` and/or `silent`; omitted fields keep their current value, any other key
 * throws (a logger instance is given to `shapeguard({ logger: { instance } })`)
 * @example configureLogger({ level: 'error' })
 */
export function configureLogger(options: ConfigureLoggerOptions = {}): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
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
  if (options.level !== undefined) overrides.level = options.level
  if (options.silent !== undefined) overrides.silent = options.silent
  ensureSink()
  apply()
}

/** Test hook: forget every mount and override, back to the lazy defaults. */
export function resetLogger(): void {
  loggerState.sink = undefined
  loggerState.threshold = 0
  mounted = undefined
  delete overrides.level
  delete overrides.silent
  resetLostLines()
  for (const level of LOG_LEVELS) logger[level] = bootstrap(level)
}
