import type { Logger, LogMethod } from './types.js'

/** The part of a winston logger the adapter uses. */
export interface WinstonLike {
  log(info: { level: string; message?: unknown; [key: string]: unknown }): unknown
}

/** What the adapter also uses when the logger has it (every winston logger does). */
interface Watchable extends WinstonLike {
  on?(event: 'error', listener: (error: unknown, transport?: unknown) => void): unknown
  remove?(transport: unknown): unknown
  readonly transports?: readonly unknown[]
}

type Level = 'debug' | 'info' | 'warn' | 'error'

interface Health {
  /** A transport failed and none is left: writing would only queue lines in winston's memory. */
  empty: boolean
}

const watched = new WeakMap<object, Health>()

function transportsLeft(target: Watchable): boolean {
  return (target.transports?.length ?? 1) > 0
}

// winston re-emits a transport's 'error' on the logger, which throws without a listener: one
// listener per logger, which stops writing to the failed transport and keeps the others.
function watch(target: Watchable): Health {
  let health = watched.get(target)
  if (health !== undefined) return health
  const state: Health = { empty: false }
  health = state
  if (typeof target.on === 'function') {
    target.on('error', (_error, transport) => {
      if (transport !== undefined) target.remove?.(transport)
      state.empty = !transportsLeft(target)
    })
  }
  watched.set(target, state)
  return state
}

function method(target: Watchable, level: Level, health: Health): LogMethod {
  return ((a: unknown, b?: unknown) => {
    if (health.empty && !transportsLeft(target)) return
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

/**
 * Wraps a winston logger as a shapeguard `Logger`, for `shapeguard({ logger: { instance } })`.
 * Records keep their fields; the message (or, in request records, the error message) is
 * winston's `message`. A transport that fails is removed from the logger instead of crashing
 * the process; the other transports keep writing.
 * @param winstonLogger a logger from `winston.createLogger()`
 * @example shapeguard({ logger: { instance: winstonAdapter(winston.createLogger({ … })) } })
 */
export function winstonAdapter(winstonLogger: WinstonLike): Logger {
  if (winstonLogger === null || typeof winstonLogger?.log !== 'function') {
    throw new TypeError(
      'shapeguard: winstonAdapter() needs a winston logger (winston.createLogger())',
    )
  }
  const target = winstonLogger as Watchable
  const health = watch(target)
  return {
    debug: method(target, 'debug', health),
    info: method(target, 'info', health),
    warn: method(target, 'warn', health),
    error: method(target, 'error', health),
  }
}
