import { optionError } from '../../shared/error-codes.js'
import { type StreamHealth, streamHealth } from './safe-stream.js'
import type { Logger, LogMethod, LogStream } from './types.js'

/**
 * What tells a winston logger from the many loggers with a `log()` method of their own (console,
 * log4js, signale, npmlog): `log(info)`, `add()` and a `levels` object, as winston 3 has them.
 */
export interface WinstonLike {
  log(info: { level: string; message?: unknown; [key: string]: unknown }): unknown
  add(transport: unknown): unknown
  readonly levels: object
}

/**
 * A logger whose level methods take `(message, meta)`, as winston's own and many others' do.
 * The message is the record's `message` (an error's, in request records), '' when it has none;
 * the other fields are the meta.
 */
export interface MessageMetaLogger {
  debug(message: string, meta?: Record<string, unknown>): unknown
  info(message: string, meta?: Record<string, unknown>): unknown
  warn(message: string, meta?: Record<string, unknown>): unknown
  error(message: string, meta?: Record<string, unknown>): unknown
}

/** What the adapter also uses when the logger has it (every winston logger does). */
interface Watchable extends WinstonLike {
  on?(event: 'error', listener: (error: unknown, transport?: unknown) => void): unknown
  remove?(transport: unknown): unknown
  readonly transports?: readonly unknown[]
}

type Level = 'debug' | 'info' | 'warn' | 'error'
const LEVELS: readonly Level[] = ['debug', 'info', 'warn', 'error']

/** A transport that writes to a stream of its own, and that stream's health. */
interface Output {
  readonly transport: unknown
  readonly stream: StreamHealth
}

interface Health {
  /** A transport failed and none is left: writing would only queue lines in winston's memory. */
  empty: boolean
  /** How many transports the logger had when `outputs` was read. */
  seen: number
  outputs: Output[]
}

const watched = new WeakMap<object, Health>()

function transportsLeft(target: Watchable): boolean {
  return (target.transports?.length ?? 1) > 0
}

function isStream(value: unknown): value is LogStream {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { write?: unknown }).write === 'function' &&
    typeof (value as { on?: unknown }).on === 'function'
  )
}

// The streams a transport writes to itself, whose errors winston never sees (an 'error' there
// without a listener kills the process): a Console transport's stdout and stderr (as winston
// finds them, on `console`), a Stream transport's stream.
function streamsOf(transport: unknown): LogStream[] {
  if (transport === null || typeof transport !== 'object') return []
  if ('stderrLevels' in transport) {
    const streams = console as unknown as { _stdout?: LogStream; _stderr?: LogStream }
    return [streams._stdout ?? process.stdout, streams._stderr ?? process.stderr]
  }
  const own = (transport as { _stream?: unknown })._stream
  return isStream(own) ? [own] : []
}

function readOutputs(target: Watchable, health: Health): void {
  const transports = target.transports ?? []
  health.seen = transports.length
  health.outputs = transports.flatMap((transport) =>
    streamsOf(transport).map((stream) => ({ transport, stream: streamHealth(stream) })),
  )
}

// winston re-emits a transport's 'error' on the logger, which throws without a listener: one
// listener per logger, which stops writing to the failed transport and keeps the others.
function watch(target: Watchable): Health {
  let health = watched.get(target)
  if (health !== undefined) return health
  const state: Health = { empty: false, seen: 0, outputs: [] }
  health = state
  if (typeof target.on === 'function') {
    target.on('error', (_error, transport) => {
      if (transport !== undefined) target.remove?.(transport)
      state.empty = !transportsLeft(target)
    })
  }
  readOutputs(target, state)
  watched.set(target, state)
  return state
}

/**
 * Removes the transports whose own stream failed (read again when transports were added or
 * removed); true when nothing is left to write to.
 */
function silenced(target: Watchable, health: Health): boolean {
  if ((target.transports?.length ?? 0) !== health.seen) readOutputs(target, health)
  let dropped = false
  for (const output of health.outputs) {
    if (output.stream.broken) {
      target.remove?.(output.transport)
      dropped = true
    }
  }
  if (dropped) {
    health.empty = !transportsLeft(target)
    readOutputs(target, health)
  }
  return health.empty && !transportsLeft(target)
}

function method(target: Watchable, level: Level, health: Health): LogMethod {
  return ((a: unknown, b?: unknown) => {
    if (silenced(target, health)) return
    const info: { level: string; message?: unknown; [key: string]: unknown } = { level }
    if (a !== null && typeof a === 'object') {
      // A fresh info object: winston adds its symbols to it, so the caller's object is never
      // touched, and an own `__proto__` key is copied as data, never as a prototype.
      for (const key of Object.keys(a)) {
        if (key === 'level') continue
        Object.defineProperty(info, key, {
          value: (a as Record<string, unknown>)[key],
          enumerable: true,
          writable: true,
          configurable: true,
        })
      }
      if (b !== undefined) info.message = b
    } else if (a !== undefined) {
      info.message = typeof a === 'string' ? a : String(a)
    }
    target.log(info)
  }) as LogMethod
}

function bridged(target: MessageMetaLogger, level: Level): LogMethod {
  return ((a: unknown, b?: unknown) => {
    if (a === null || typeof a !== 'object') {
      target[level](a === undefined ? '' : String(a))
      return
    }
    if (typeof b === 'string') {
      target[level](b, a as Record<string, unknown>)
      return
    }
    // The record's own message is the message (a spread keeps an own `__proto__` key as data).
    const { message, ...meta } = a as Record<string, unknown>
    if (typeof message === 'string') target[level](message, meta)
    else target[level]('', a as Record<string, unknown>)
  }) as LogMethod
}

function hasLevels(value: object): value is MessageMetaLogger {
  return LEVELS.every((level) => typeof (value as Record<string, unknown>)[level] === 'function')
}

function isWinston(value: object): value is WinstonLike {
  const { log, add, levels } = value as Partial<Record<keyof WinstonLike, unknown>>
  return (
    typeof log === 'function' &&
    typeof add === 'function' &&
    levels !== null &&
    typeof levels === 'object'
  )
}

/**
 * Wraps a winston logger, or any logger whose level methods take `(message, meta)`, as a
 * shapeguard `Logger`, for `shapeguard({ logger: { instance } })`.
 * With a winston logger (`log()`, `add()` and `levels`: see `WinstonLike`), records keep their
 * fields and the message (or, in request records, the error message) is winston's `message`. A
 * transport that fails, or whose own stream does (a Console transport's stdout once its reader
 * went away, a Stream transport's stream), is removed from the logger instead of crashing the
 * process; the other transports keep writing.
 * Any other logger (console, log4js, signale: a `log()` of their own does not make them winston)
 * is called as `logger.info(message, meta)`: see `MessageMetaLogger`.
 * @param target a logger from `winston.createLogger()`, or one with `debug`, `info`, `warn` and
 * `error` taking `(message, meta)`
 * @example shapeguard({ logger: { instance: winstonAdapter(winston.createLogger({ … })) } })
 */
export function winstonAdapter(target: WinstonLike | MessageMetaLogger): Logger {
  if (target !== null && typeof target === 'object') {
    if (isWinston(target)) {
      const winston: Watchable = target
      const health = watch(winston)
      return {
        debug: method(winston, 'debug', health),
        info: method(winston, 'info', health),
        warn: method(winston, 'warn', health),
        error: method(winston, 'error', health),
      }
    }
    if (hasLevels(target)) {
      return {
        debug: bridged(target, 'debug'),
        info: bridged(target, 'info'),
        warn: bridged(target, 'warn'),
        error: bridged(target, 'error'),
      }
    }
  }
  throw optionError(
    'SG_ERR_INSTANCE_INCOMPATIBLE',
    'shapeguard: winstonAdapter(): needs a winston logger (winston.createLogger(): log(), add() and levels) or a logger whose debug, info, warn and error methods take (message, meta)',
  )
}
