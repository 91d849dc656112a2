import express5 from 'express'
import express4 from 'express4'
import { configureLogger } from '../../src/runtime/logging/logger.js'
import type { Logger } from '../../src/runtime/logging/types.js'

/** Every behaviour runs on both hosts: `describe.each(hosts)('%s', (_, express) => …)`. */
export const hosts = [
  ['express 4', express4],
  ['express 5', express5],
] as const

export type Express = typeof express5

export interface LogRecord {
  level: 'debug' | 'info' | 'warn' | 'error'
  message: string | undefined
  meta: Record<string, unknown>
}

/** A logger that keeps what it is given. */
export function captureLogger(): Logger & { records: LogRecord[] } {
  const records: LogRecord[] = []
  const method =
    (level: LogRecord['level']) =>
    (a: string | Record<string, unknown>, b?: string): void => {
      if (typeof a === 'string') records.push({ level, message: a, meta: {} })
      else records.push({ level, message: b, meta: a })
    }
  return {
    records,
    debug: method('debug'),
    info: method('info'),
    warn: method('warn'),
    error: method('error'),
  }
}

/**
 * Runs `fn` with the shared logger writing (e2e files silence it so the request logger stays off
 * stdout), and silences it again afterwards.
 */
export async function withLogging<T>(fn: () => Promise<T>): Promise<T> {
  configureLogger({ silent: false })
  try {
    return await fn()
  } finally {
    configureLogger({ silent: true })
  }
}
