import { describe, expect, it } from 'vitest'
import {
  checkLoggerInstance,
  LOGGER_DEFAULTS,
  resolveLoggerOptions,
} from '../../../src/runtime/logging/options.js'

const noop = () => {}
const instance = { debug: noop, info: noop, warn: noop, error: noop }

describe('resolveLoggerOptions', () => {
  it('follows debug for the per-environment defaults', () => {
    expect(resolveLoggerOptions(undefined, true)).toMatchObject({
      level: 'debug',
      pretty: true,
      logAllRequests: true,
      slowThreshold: 500,
    })
    expect(resolveLoggerOptions(undefined, false)).toMatchObject({
      level: 'warn',
      pretty: false,
      logAllRequests: false,
      slowThreshold: 1000,
    })
    expect(resolveLoggerOptions({}, false)).toEqual(LOGGER_DEFAULTS.production)
  })

  it('has the same fixed defaults in both environments', () => {
    for (const debug of [true, false]) {
      expect(resolveLoggerOptions(undefined, debug)).toMatchObject({
        logIncoming: true,
        logRequestId: true,
        shortRequestId: false,
        logClientIp: false,
        lineColor: 'method',
        logRequestBody: false,
        logResponseBody: false,
        logBodyMaxBytes: 2048,
        redact: [],
        silent: false,
      })
    }
  })

  it('takes every given option over the defaults, and freezes the result', () => {
    const resolved = resolveLoggerOptions(
      {
        level: 'error',
        pretty: false,
        logAllRequests: false,
        logIncoming: false,
        logRequestId: false,
        shortRequestId: true,
        logClientIp: true,
        lineColor: 'level',
        slowThreshold: 0,
        logRequestBody: true,
        logResponseBody: true,
        logBodyMaxBytes: 0,
        redact: ['email'],
        silent: true,
      },
      true,
    )
    expect(resolved).toMatchObject({
      level: 'error',
      pretty: false,
      logAllRequests: false,
      logIncoming: false,
      logRequestId: false,
      shortRequestId: true,
      logClientIp: true,
      lineColor: 'level',
      slowThreshold: 0,
      logRequestBody: true,
      logResponseBody: true,
      logBodyMaxBytes: 0,
      redact: ['email'],
      silent: true,
    })
    expect(Object.isFrozen(resolved)).toBe(true)
  })

  it('ignores every other option when an instance is given', () => {
    const resolved = resolveLoggerOptions({ instance, pretty: true, level: 'error' }, true)
    expect(resolved.instance).toBe(instance)
    expect(resolved).toMatchObject({ pretty: false, level: 'debug', logAllRequests: true })
    const production = resolveLoggerOptions(
      { instance, level: 'debug', logAllRequests: true },
      false,
    )
    expect(production).toMatchObject({ pretty: false, level: 'warn', logAllRequests: false })
  })

  it.each([
    [{ level: 'verbose' }, /logger\.level: must be debug, info, warn or error \(got "verbose"\)/],
    [{ pretty: 'yes' }, /logger\.pretty: must be a boolean/],
    [{ silent: 1 }, /logger\.silent: must be a boolean/],
    [{ lineColor: 'status' }, /logger\.lineColor: must be 'method' or 'level'/],
    [{ slowThreshold: -1 }, /logger\.slowThreshold: must be a number of milliseconds >= 0/],
    [{ slowThreshold: Number.NaN }, /logger\.slowThreshold/],
    [{ redact: 'password' }, /logger\.redact: must be an array/],
    [
      { logBodyMaxBytes: -1 },
      /logger\.logBodyMaxBytes: must be a whole number of bytes >= 0 \(got -1\)/,
    ],
    [{ logBodyMaxBytes: 1.5 }, /logger\.logBodyMaxBytes: must be a whole number of bytes >= 0/],
    [{ logBodyMaxBytes: '2048' }, /logger\.logBodyMaxBytes: must be a whole number/],
    [{ logBodyMaxBytes: Number.POSITIVE_INFINITY }, /logger\.logBodyMaxBytes: must be a whole/],
    [
      { logAllRequest: true },
      /logAllRequest is not an option \(instance, level, pretty, logAllRequests, logIncoming, logRequestId, shortRequestId, logClientIp, lineColor, slowThreshold, logRequestBody, logResponseBody, logBodyMaxBytes, maxBufferBytes, redact, silent\)$/,
    ],
    [{ instance, levle: 'warn' }, /levle is not an option \(instance, level, /],
  ])('rejects %j at mount time, naming the option', (options, message) => {
    expect(() => resolveLoggerOptions(options as never, true)).toThrow(message)
  })
})

describe('checkLoggerInstance', () => {
  it('names every missing method', () => {
    expect(() => checkLoggerInstance({ info: noop, error: noop })).toThrow(
      /logger\.instance: must have the methods debug, info, warn and error, missing: debug, warn/,
    )
    expect(() => checkLoggerInstance(null)).toThrow(/missing: debug, info, warn, error/)
    expect(() =>
      resolveLoggerOptions({ instance: { ...instance, warn: 'no' } as never }, true),
    ).toThrow(/missing: warn/)
  })

  it('accepts any object with the four methods', () => {
    expect(checkLoggerInstance(instance)).toBe(instance)
  })
})
