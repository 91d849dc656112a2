import { checkKnownKeys, subject } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import { MAX_BUFFER_BYTES } from './bounded-stream.js'
import { isLogLevel, type LogLevel } from './levels.js'
import { validateRedactPaths } from './redact-paths.js'
import type { Logger } from './types.js'

/** `logger` options of `shapeguard()`; defaults follow `debug`. */
export interface LoggerOptions {
  /** Any object with `debug`, `info`, `warn`, `error`; when given, the other options are ignored. */
  instance?: Logger
  /** Lowest level written. @default `'debug'` in development, `'warn'` in production */
  level?: LogLevel
  /** Pretty lines instead of JSON records. @default `true` in development, `false` in production */
  pretty?: boolean
  /** Log every response; when false only 4xx, 5xx and slow ones. @default `debug` (true in development) */
  logAllRequests?: boolean
  /** Log a `>>` line when a request arrives (debug level). @default true */
  logIncoming?: boolean
  /** Show the request ID. @default true */
  logRequestId?: boolean
  /** Show only the last 8 characters of the request ID in pretty lines. @default false */
  shortRequestId?: boolean
  /** Add the client address (`req.ip`). @default false */
  logClientIp?: boolean
  /** Pretty lines coloured by HTTP method or by status. @default 'method' */
  lineColor?: 'method' | 'level'
  /** Milliseconds from which a response is flagged slow; 0 disables. @default 500 in development, 1000 in production */
  slowThreshold?: number
  /** Log the (validated) request body, redacted. @default false */
  logRequestBody?: boolean
  /** Log the response body as sent, redacted. @default false */
  logResponseBody?: boolean
  /**
   * UTF-8 bytes of a logged body's JSON kept in its record; a longer one is cut there and ends
   * with `…[truncated]` (a body a guard or schema refused may be huge).
   * @default 2048
   */
  logBodyMaxBytes?: number
  /**
   * Bytes of log lines left waiting in the output stream (stdout behind a slow reader) past which
   * new lines are dropped, counted, and reported in a warn line once the stream drains;
   * `Infinity` never drops. @default 16 MiB (16777216)
   */
  maxBufferBytes?: number
  /** Extra key paths to redact, appended to the always-redacted ones. @default [] */
  redact?: string[]
  /** Write nothing at all. @default false */
  silent?: boolean
}

export interface ResolvedLoggerOptions {
  readonly instance: Logger | undefined
  readonly level: LogLevel
  readonly pretty: boolean
  readonly logAllRequests: boolean
  readonly logIncoming: boolean
  readonly logRequestId: boolean
  readonly shortRequestId: boolean
  readonly logClientIp: boolean
  readonly lineColor: 'method' | 'level'
  readonly slowThreshold: number
  readonly logRequestBody: boolean
  readonly logResponseBody: boolean
  readonly logBodyMaxBytes: number
  readonly maxBufferBytes: number
  readonly redact: readonly string[]
  readonly silent: boolean
}

const COMMON = {
  instance: undefined,
  logIncoming: true,
  logRequestId: true,
  shortRequestId: false,
  logClientIp: false,
  lineColor: 'method',
  logRequestBody: false,
  logResponseBody: false,
  logBodyMaxBytes: 2048,
  maxBufferBytes: MAX_BUFFER_BYTES,
  redact: Object.freeze([]),
  silent: false,
} as const

/** Defaults per environment; `debug` picks one. */
export const LOGGER_DEFAULTS: Readonly<
  Record<'development' | 'production', ResolvedLoggerOptions>
> = Object.freeze({
  development: Object.freeze({
    ...COMMON,
    level: 'debug',
    pretty: true,
    logAllRequests: true,
    slowThreshold: 500,
  }),
  production: Object.freeze({
    ...COMMON,
    level: 'warn',
    pretty: false,
    logAllRequests: false,
    slowThreshold: 1000,
  }),
})

// Every option in the order of LoggerOptions (an unknown key's error lists them): `true` marks a
// plain boolean, checked as one; the others have checks of their own.
const OPTIONS = {
  instance: false,
  level: false,
  pretty: true,
  logAllRequests: true,
  logIncoming: true,
  logRequestId: true,
  shortRequestId: true,
  logClientIp: true,
  lineColor: false,
  slowThreshold: false,
  logRequestBody: true,
  logResponseBody: true,
  logBodyMaxBytes: false,
  maxBufferBytes: false,
  redact: false,
  silent: true,
} as const satisfies Record<keyof LoggerOptions, boolean>
const KNOWN = Object.keys(OPTIONS) as (keyof LoggerOptions)[]
const BOOLEANS = KNOWN.filter((key) => OPTIONS[key])
const METHODS = ['debug', 'info', 'warn', 'error'] as const

/** Throws at mount time when a logger (`logger.instance` by default) lacks one of the four methods. */
export function checkLoggerInstance(instance: unknown, name = 'logger.instance'): Logger {
  const missing =
    instance === null || typeof instance !== 'object'
      ? [...METHODS]
      : METHODS.filter((m) => typeof (instance as Record<string, unknown>)[m] !== 'function')
  if (missing.length > 0) {
    throw optionError(
      'SG_ERR_INSTANCE_INCOMPATIBLE',
      `shapeguard: ${subject(name)} must have the methods debug, info, warn and error, missing: ${missing.join(', ')}`,
    )
  }
  return instance as Logger
}

function fail(option: string, expected: string, value: unknown): never {
  throw optionError(
    'SG_ERR_INVALID_OPTION',
    `shapeguard: logger.${option}: must be ${expected} (got ${JSON.stringify(value) ?? String(value)})`,
  )
}

/** Resolves `logger` options once, at mount; bad options throw with the option's name. */
export function resolveLoggerOptions(
  options: LoggerOptions | undefined,
  debug: boolean,
): ResolvedLoggerOptions {
  const defaults = LOGGER_DEFAULTS[debug ? 'development' : 'production']
  if (options === undefined) return defaults
  if (options === null || typeof options !== 'object') fail('', 'an object', options)
  checkKnownKeys(options, KNOWN, 'logger')
  // A user's own logger formats for itself: it gets structured records, with every other
  // option at its default (when given, all other logger options are ignored).
  if (options.instance !== undefined) {
    return Object.freeze({
      ...defaults,
      instance: checkLoggerInstance(options.instance),
      pretty: false,
    })
  }
  for (const key of BOOLEANS) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean') {
      fail(key, 'a boolean', options[key])
    }
  }
  const { level, lineColor, slowThreshold, logBodyMaxBytes, maxBufferBytes } = options
  if (level !== undefined && !isLogLevel(level)) fail('level', 'debug, info, warn or error', level)
  if (lineColor !== undefined && lineColor !== 'method' && lineColor !== 'level') {
    fail('lineColor', "'method' or 'level'", lineColor)
  }
  if (
    slowThreshold !== undefined &&
    (typeof slowThreshold !== 'number' || !Number.isFinite(slowThreshold) || slowThreshold < 0)
  ) {
    fail('slowThreshold', 'a number of milliseconds >= 0', slowThreshold)
  }
  if (
    logBodyMaxBytes !== undefined &&
    (!Number.isSafeInteger(logBodyMaxBytes) || logBodyMaxBytes < 0)
  ) {
    fail('logBodyMaxBytes', 'a whole number of bytes >= 0', logBodyMaxBytes)
  }
  if (
    maxBufferBytes !== undefined &&
    maxBufferBytes !== Number.POSITIVE_INFINITY &&
    (!Number.isSafeInteger(maxBufferBytes) || maxBufferBytes < 1)
  ) {
    fail('maxBufferBytes', 'a whole number of bytes >= 1, or Infinity', maxBufferBytes)
  }
  return Object.freeze({
    instance: undefined,
    level: level ?? defaults.level,
    pretty: options.pretty ?? defaults.pretty,
    logAllRequests: options.logAllRequests ?? defaults.logAllRequests,
    logIncoming: options.logIncoming ?? defaults.logIncoming,
    logRequestId: options.logRequestId ?? defaults.logRequestId,
    shortRequestId: options.shortRequestId ?? defaults.shortRequestId,
    logClientIp: options.logClientIp ?? defaults.logClientIp,
    lineColor: lineColor ?? defaults.lineColor,
    slowThreshold: slowThreshold ?? defaults.slowThreshold,
    logRequestBody: options.logRequestBody ?? defaults.logRequestBody,
    logResponseBody: options.logResponseBody ?? defaults.logResponseBody,
    logBodyMaxBytes: logBodyMaxBytes ?? defaults.logBodyMaxBytes,
    maxBufferBytes: maxBufferBytes ?? defaults.maxBufferBytes,
    redact: validateRedactPaths(options.redact),
    silent: options.silent ?? defaults.silent,
  })
}
