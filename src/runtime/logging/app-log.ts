import type { SecretParam } from '../telemetry/url-query.js'
import { LEVEL_VALUE, type LogLevel, SILENT } from './levels.js'
import type { ResolvedLoggerOptions } from './options.js'
import { compilePaths, secretParams } from './redact-paths.js'
import { createRedactor, type Redactor } from './redactor.js'
import type { LogSink } from './types.js'

/**
 * What applies to every app's logging at once: `configureLogger()`'s level and silence, and the
 * route fuzzer's mute. Each value, when set, wins over every app's own options.
 */
export const processLog: {
  level: LogLevel | undefined
  silent: boolean | undefined
  /** Set while the route fuzzer mutes every app; the mute it holds. */
  muted: object | undefined
} = { level: undefined, silent: undefined, muted: undefined }

/**
 * One `shapeguard()` instance's logging, made when it is mounted: its backend (console, pino,
 * winston or `logger.instance`), level, silence and redaction. The request logger writes its
 * lines through it, and `logger` does for every line written inside one of its requests.
 */
export class AppLog {
  readonly sink: LogSink
  readonly level: LogLevel
  readonly silent: boolean
  readonly redact: Redactor
  /** Whether a query parameter's value is masked, in log lines and the request span's URL. */
  readonly isSecretParam: SecretParam
  /** `logger.logRequestId`: whether its lines carry the request ID. */
  readonly logRequestId: boolean

  constructor(sink: LogSink, options: ResolvedLoggerOptions) {
    this.sink = sink
    this.level = options.level
    this.silent = options.silent
    this.redact = createRedactor(options.redact)
    this.isSecretParam = secretParams(compilePaths(options.redact))
    this.logRequestId = options.logRequestId
  }

  /** The lowest level value written now: its own options under the process-wide ones. */
  threshold(): number {
    if (processLog.muted !== undefined || (processLog.silent ?? this.silent)) return SILENT
    return LEVEL_VALUE[processLog.level ?? this.level]
  }
}
