import type { Server } from 'node:http'
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { type AddressInfo, connect, type Socket } from 'node:net'

/** What a request got: its answer, or the error code of a connection that failed. */
export type Outcome =
  | { status: number; headers: IncomingHttpHeaders; text: string }
  | { error: string }

/** GET `path` on 127.0.0.1:`port` through `agent`; never rejects, fails after `ms`. */
export function get(port: number, path: string, agent?: Agent, ms = 20_000): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }))
    })
    req.setTimeout(ms, () => req.destroy(new Error('client timeout')))
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }))
    req.end()
  })
}

export function portOf(server: Server): number {
  return (server.address() as AddressInfo).port
}

/** A raw connection that writes what it is told and keeps what it reads. */
export async function rawConnection(
  port: number,
): Promise<{ socket: Socket; read(): string; ended: Promise<void> }> {
  const socket = connect(port, '127.0.0.1')
  socket.on('error', () => {})
  let text = ''
  socket.setEncoding('latin1')
  socket.on('data', (chunk: string) => {
    text += chunk
  })
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  await new Promise((resolve) => socket.once('connect', resolve))
  return { socket, read: () => text, ended }
}

/** Waits until `check()` holds, every 5 ms, for at most `ms`. */
export async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

export function keepAlive(): Agent {
  return new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY })
}
