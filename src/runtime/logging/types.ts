import type { FlatWriter } from './flat-record.js'

/**
 * The contract between the logging layer and the rest of the runtime.
 * Every backend (pino, winston, a user's `logger.instance`, the built-in console logger) is
 * reached through this interface.
 */

/** A log call: `(message)` or `(meta, message?)`. */
export interface LogMethod {
  (message: string): void
  (meta: Record<string, unknown>, message?: string): void
}

/** Any object with these four methods can be a shapeguard logger (`logger.instance`). */
export interface Logger {
  debug: LogMethod
  info: LogMethod
  warn: LogMethod
  error: LogMethod
}

/** Where shapeguard's own backends write their lines (`process.stdout` unless told otherwise). */
export interface LogStream {
  write(line: string): unknown
  isTTY?: boolean | undefined
}

/** Which backend a sink writes through. */
export type BackendName = 'instance' | 'pino' | 'winston' | 'console'

/**
 * A resolved backend. `pretty` sinks take preformatted text lines (the request logger formats
 * them); the others take structured records.
 */
export interface LogSink {
  readonly backend: BackendName
  readonly logger: Logger
  readonly pretty: boolean
  readonly colors: boolean
  /**
   * JSON sinks that can write a flat record's line directly (the request logger's records), or
   * undefined: records then always go through `logger`.
   */
  readonly flat: FlatWriter | undefined
}
