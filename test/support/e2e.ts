import { get as httpGet, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
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

/**
 * A POST with exactly the headers given (supertest adds a content type and a length of its own),
 * to an app listening on 127.0.0.1 for this one request.
 */
export async function rawPost(
  app: ReturnType<Express>,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: any }> {
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  try {
    const { port } = server.address() as AddressInfo
    return await new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
        let text = ''
        res.on('data', (chunk) => {
          text += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }))
      })
      req.on('error', reject)
      req.end(body)
    })
  } finally {
    server.close()
  }
}

/** What a route calls once it has the request, so that `abandon()` can drop the connection. */
export function arrived(req: { app: { locals: Record<string, unknown> } }): void {
  ;(req.app.locals.arrived as () => void)()
}

/**
 * Sends GET `path` to `app` on 127.0.0.1 and drops the connection once the route has called
 * `arrived(req)`, as a client that gives up does; resolves when the server has closed.
 */
export async function abandon(
  app: { listen: ReturnType<Express>['listen']; locals: Record<string, unknown> },
  path: string,
): Promise<void> {
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const handled = new Promise<void>((resolve) => {
    app.locals.arrived = resolve
  })
  const { port } = server.address() as AddressInfo
  const client = httpGet({ host: '127.0.0.1', port, path })
  client.on('error', () => {})
  await handled
  client.destroy()
  await new Promise((resolve) => server.close(resolve))
}
