import type { Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Express } from '../support/e2e.js'

// Hand-written streams, as any server writes them, so the client is tested against the wire
// format alone (not against shapeguard's own writer).

export interface Listening {
  readonly url: string
  close(): Promise<void>
}

/** Listens on 127.0.0.1; `close` also ends the streams still open. */
export async function listen(app: ReturnType<Express>): Promise<Listening> {
  const server: Server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** Starts an SSE answer; `retry` sends the reconnection delay first. */
export function sseHead(res: ServerResponse, retry?: number): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
  })
  if (retry !== undefined) res.write(`retry: ${retry}\n\n`)
  else res.flushHeaders()
}

/** Writes one event as the wire contract frames it. */
export function sseEvent(res: ServerResponse, event: string, data: unknown, id?: string): void {
  res.write(
    `event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`,
  )
}

/** Starts an NDJSON answer. */
export function ndjsonHead(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/x-ndjson' })
  res.flushHeaders()
}

/** Resolves once the response's connection closes, or rejects after `ms`. */
export function closed(res: ServerResponse, ms = 5000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (res.socket === null || res.socket.destroyed) return resolve()
    const timer = setTimeout(() => reject(new Error('the server never saw the client go')), ms)
    res.once('close', () => {
      clearTimeout(timer)
      resolve()
    })
  })
}

/** Every item of an async iterable, bounded so a test cannot hang on a stream that never ends. */
export async function collect<T>(items: AsyncIterable<T>, max = 100): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) {
    out.push(item)
    if (out.length >= max) throw new Error(`more than ${max} items`)
  }
  return out
}

/** What `promise` rejects with (fails when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

export const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
