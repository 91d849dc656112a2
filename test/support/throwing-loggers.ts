import type { Logger } from '../../src/runtime/logging/types.js'

const METHODS = ['debug', 'info', 'warn', 'error'] as const

/**
 * Loggers whose every use throws, as a broken `logger.instance` does: methods that throw an
 * Error, methods that throw what is not an Error, and methods behind getters that throw once the
 * mount has checked them (`arm()`). Each counts the calls that reached it.
 */
export function throwingLoggers(): {
  kind: string
  instance: Logger
  calls: () => number
  arm: () => void
}[] {
  return [
    throwing('methods throw an Error', () => {
      throw new Error('logger down: secret-in-message')
    }),
    throwing('methods throw a string', () => {
      throw 'logger down'
    }),
    throwing('methods throw undefined', () => {
      throw undefined
    }),
    getters(),
  ]
}

function throwing(kind: string, fail: () => never) {
  let count = 0
  const method = () => {
    count++
    fail()
  }
  const instance = Object.fromEntries(METHODS.map((m) => [m, method])) as unknown as Logger
  return { kind, instance, calls: () => count, arm: () => {} }
}

function getters() {
  let armed = false
  let count = 0
  const instance = {} as Logger
  for (const m of METHODS) {
    Object.defineProperty(instance, m, {
      enumerable: true,
      get() {
        if (!armed) return () => {}
        count++
        throw new TypeError('getter down')
      },
    })
  }
  return {
    kind: 'getters throw',
    instance,
    calls: () => count,
    arm: () => {
      armed = true
    },
  }
}
