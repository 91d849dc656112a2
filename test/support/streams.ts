import { createHook } from 'node:async_hooks'
import { createServer, type Server } from 'node:http'
import { type AddressInfo, connect, type Socket } from 'node:net'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { Express } from './e2e.js'

// What the stream tests need besides an app: a server they can fill with connections, a raw
// socket client that reads as slowly as told (or never), and the process's memory and handles.

export interface Listening {
  readonly server: Server
  readonly port: number
  /** Drops every connection still open and closes the server. */
  close(): Promise<void>
}

/** Listens on 127.0.0.1 with a deep accept queue, for many connections at once. */
export async function listen(app: ReturnType<Express>, backlog = 4096): Promise<Listening> {
  const server = createServer(app)
  server.maxConnections = 1_000_000
  await new Promise<void>((resolve) =>
    server.listen({ port: 0, host: '127.0.0.1', backlog }, resolve),
  )
  const { port } = server.address() as AddressInfo
  return {
    server,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export interface Head {
  status: number
  /** Header names in lower case; a repeated header keeps its last value. */
  headers: Record<string, string>
}

// Decodes a `Transfer-Encoding: chunked` body given in pieces.
class Dechunker {
  private pending: Buffer = Buffer.alloc(0)
  private left = -1 // bytes left in the current chunk; -1 while a size line is awaited
  done = false

  push(piece: Buffer, out: (data: Buffer) => void): void {
    let buf = this.pending.length === 0 ? piece : Buffer.concat([this.pending, piece])
    this.pending = Buffer.alloc(0)
    while (buf.length > 0 && !this.done) {
      if (this.left === -1) {
        const end = buf.indexOf('\r\n')
        if (end < 0) break
        this.left = Number.parseInt(buf.subarray(0, end).toString('latin1'), 16)
        buf = buf.subarray(end + 2)
        if (this.left === 0) this.done = true
        continue
      }
      if (this.left > 0) {
        const n = Math.min(this.left, buf.length)
        out(buf.subarray(0, n))
        this.left -= n
        buf = buf.subarray(n)
        continue
      }
      // the CRLF after a chunk's data
      if (buf.length < 2) break
      buf = buf.subarray(2)
      this.left = -1
    }
    if (!this.done) this.pending = buf
  }
}

export interface RawClientOptions {
  /** Request header lines as sent, e.g. `['Last-Event-ID: 7']`; CR and LF go out as given. */
  headers?: string[]
  /** Never read unless `read()` is called (the socket is paused from the start). */
  paused?: boolean
  /** Keep the body's bytes (else only count them). @default true */
  keep?: boolean
}

/**
 * A GET over a raw socket: what Node's http client refuses to send (CR or LF in a header value),
 * and a reader that reads only when told.
 */
export class RawClient {
  readonly socket: Socket
  /** Body bytes received so far (after the chunked framing). */
  received = 0
  /** The response's status and headers, once they have arrived. */
  readonly head: Promise<Head>
  /** Settles when the socket has closed, for whatever reason. */
  readonly closed: Promise<void>
  private readonly chunks: Buffer[] = []
  private raw: Buffer = Buffer.alloc(0)
  private parsed: Head | undefined
  private dechunker: Dechunker | undefined
  private waiters: Array<() => void> = []

  constructor(port: number, path: string, options: RawClientOptions = {}) {
    const keep = options.keep ?? true
    const lines = [`GET ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...(options.headers ?? [])]
    this.socket = connect({ port, host: '127.0.0.1' })
    this.socket.on('error', () => {})
    if (options.paused === true) this.socket.pause()
    this.socket.write(`${lines.join('\r\n')}\r\n\r\n`)
    let gotHead: (head: Head) => void = () => {}
    let noHead: (error: Error) => void = () => {}
    this.head = new Promise<Head>((resolve, reject) => {
      gotHead = resolve
      noHead = reject
    })
    this.head.catch(() => {})
    this.closed = new Promise<void>((resolve) => this.socket.once('close', () => resolve()))
    this.closed.then(() => {
      noHead(new Error('the connection closed before the response head'))
      this.wake()
    })
    const body = (data: Buffer) => {
      this.received += data.length
      if (keep) this.chunks.push(Buffer.from(data))
    }
    this.socket.on('data', (piece: Buffer) => {
      if (this.parsed === undefined) {
        this.raw = Buffer.concat([this.raw, piece])
        const end = this.raw.indexOf('\r\n\r\n')
        if (end < 0) return
        this.parsed = parseHead(this.raw.subarray(0, end).toString('latin1'))
        if (this.parsed.headers['transfer-encoding'] === 'chunked') this.dechunker = new Dechunker()
        piece = this.raw.subarray(end + 4)
        this.raw = Buffer.alloc(0)
        gotHead(this.parsed)
      }
      if (this.dechunker === undefined) body(piece)
      else this.dechunker.push(piece, body)
      this.wake()
    })
  }

  /** Reads up to `bytes` from the socket's buffer (a paused client); the count actually read. */
  read(bytes: number): number {
    const before = this.received
    this.socket.read(Math.min(bytes, this.socket.readableLength) || undefined)
    return this.received - before
  }

  /** The body so far, as text. */
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8')
  }

  /** The body so far, as bytes. */
  bytes(): Buffer {
    return Buffer.concat(this.chunks)
  }

  /** Whether the body ended (its last chunk or its Content-Length arrived) or the socket closed. */
  get ended(): boolean {
    if (this.dechunker?.done === true || this.socket.destroyed) return true
    const length = this.parsed?.headers['content-length']
    return length !== undefined && this.received >= Number(length)
  }

  /** Resolves once `test()` holds after some data, or rejects after `ms`. */
  async until(test: () => boolean, ms = 5000, what = 'the awaited data'): Promise<void> {
    const deadline = Date.now() + ms
    while (!test()) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`timed out waiting for ${what}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 50))
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  destroy(): void {
    this.socket.destroy()
  }

  private wake(): void {
    const waiters = this.waiters
    this.waiters = []
    for (const wake of waiters) wake()
  }
}

function parseHead(text: string): Head {
  const [status, ...lines] = text.split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { status: Number(status?.split(' ')[1]), headers }
}

let collect: (() => void) | undefined

/** A full garbage collection (`--expose-gc` set at run time, as test/engine/compile does). */
export function gc(): void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc')
    collect = runInNewContext('gc') as () => void
  }
  collect()
  collect()
}

/** The heap used after a full collection. */
export function heapAfterGc(): number {
  gc()
  return process.memoryUsage().heapUsed
}

/** The highest RSS seen while `sampling` runs (sampled every 20 ms). */
export async function peakRss<T>(sampling: () => Promise<T>): Promise<{ peak: number; value: T }> {
  let peak = process.memoryUsage.rss()
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 20)
  try {
    const value = await sampling()
    peak = Math.max(peak, process.memoryUsage.rss())
    return { peak, value }
  } finally {
    clearInterval(sampler)
  }
}

/** The process's active resources (libuv handles and requests) by type: timers, sockets, … */
export function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1
  return counts
}

/**
 * Counts the timers made from now on and not yet cleared (or fired, for a timeout), ref'd or
 * not: `getActiveResourcesInfo()` leaves out an unref'd timer, as a heartbeat's is.
 */
export function trackTimers(): { live(): number; stop(): void } {
  const live = new Set<number>()
  const hook = createHook({
    init(id, type) {
      if (type === 'Timeout') live.add(id)
    },
    destroy(id) {
      live.delete(id)
    },
  }).enable()
  return { live: () => live.size, stop: () => hook.disable() }
}

/**
 * Waits (up to `ms`) until no type of active resource counts more than in `baseline`; returns
 * the types still above it (empty when back to baseline).
 */
export async function backToBaseline(
  baseline: Record<string, number>,
  ms = 3000,
): Promise<Record<string, number>> {
  const deadline = Date.now() + ms
  for (;;) {
    const above: Record<string, number> = {}
    for (const [type, n] of Object.entries(activeResources())) {
      const extra = n - (baseline[type] ?? 0)
      if (extra > 0) above[type] = extra
    }
    if (Object.keys(above).length === 0 || Date.now() > deadline) return above
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** Resolves after `ms` (a test's pause, never a wait for an outcome). */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Resolves once `test()` holds (checked every 10 ms), or rejects after `ms`. */
export async function waitFor(
  test: () => boolean,
  ms = 3000,
  what = 'the condition',
): Promise<void> {
  const deadline = Date.now() + ms
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(10)
  }
}

/**
 * Settles with how `promise` settled, or `'pending'` if it has not within `ms`: a send waiting on
 * backpressure stays pending.
 */
export async function stateOf(
  promise: Promise<unknown>,
  ms = 0,
): Promise<'fulfilled' | 'rejected' | 'pending'> {
  let timer: NodeJS.Timeout | undefined
  const pending = new Promise<'pending'>((resolve) => {
    timer = setTimeout(() => resolve('pending'), ms)
  })
  try {
    return await Promise.race([
      promise.then(
        () => 'fulfilled' as const,
        () => 'rejected' as const,
      ),
      pending,
    ])
  } finally {
    clearTimeout(timer)
  }
}

/** Prints a measured figure when STREAM_FIGURES is set (on stderr: the tests refuse console output). */
export function figure(line: string): void {
  if (process.env.STREAM_FIGURES !== undefined) process.stderr.write(`${line}\n`)
}
