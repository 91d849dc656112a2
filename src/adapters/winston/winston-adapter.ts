import type { Logger, LogMethod } from '../../runtime/logging/types.js'

/** The part of a winston logger the adapter uses. */
export interface WinstonLike {
  log(info: { level: string; message?: unknown; [key: string]: unknown }): unknown
}

type Level = 'debug' | 'info' | 'warn' | 'error'

function method(target: WinstonLike, level: Level): LogMethod {
  return ((a: unknown, b?: unknown) => {
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
 * winston's `message`.
 * @param winstonLogger a logger from `winston.createLogger()`
 * @example shapeguard({ logger: { instance: winstonAdapter(winston.createLogger({ … })) } })
 */
export function winstonAdapter(winstonLogger: WinstonLike): Logger {
  if (winstonLogger === null || typeof winstonLogger?.log !== 'function') {
    throw new TypeError(
      'shapeguard: winstonAdapter() needs a winston logger (winston.createLogger())',
    )
  }
  return {
    debug: method(winstonLogger, 'debug'),
    info: method(winstonLogger, 'info'),
    warn: method(winstonLogger, 'warn'),
    error: method(winstonLogger, 'error'),
  }
}
