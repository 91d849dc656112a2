import type { Socket } from 'node:net'
import type { Request, Response } from 'express'

/** The most bytes of a refused body read and thrown away so that the connection can be kept. */
export const DRAIN_BYTES = 1_000_000

/** How long a client that stopped sending may hold its connection once answered. */
export const STALL_MS = 1000

/** How long a closing connection keeps reading (and dropping) what the client still sends. */
export const LINGER_MS = 3000

/** The most bytes a closing connection reads and drops before it is cut. */
export const LINGER_BYTES = 64_000_000

/**
 * After a refusal, the rest of the body is read and thrown away, so that a client still sending
 * reads the answer rather than a reset connection. A rest of at most `DRAIN_BYTES` (Content-Length
 * says so) is read whole and the connection kept; a client that stalls is closed `STALL_MS` after
 * its answer. A longer rest gets a lingering close: the answer says `Connection: close`, the
 * server's side is closed once it is written, and input is dropped for `LINGER_MS` or up to
 * `LINGER_BYTES` before the socket is destroyed (destroying at once, with bytes unread, sends a
 * TCP reset that can make the client lose the answer).
 * @param consumed bytes of the body already read
 */
export function drainAfterRefusal(req: Request, res: Response, consumed: number): void {
  if (req.readableEnded || req.destroyed) return
  req.on('error', () => {})
  const length = Number(req.headers['content-length'])
  const left = Number.isSafeInteger(length) ? length - consumed : Number.POSITIVE_INFINITY
  if (left <= DRAIN_BYTES) {
    req.resume()
    res.once('finish', () => {
      if (!req.readableEnded)
        setTimeout(() => req.readableEnded || req.socket?.destroy(), STALL_MS).unref()
    })
    return
  }
  if (!res.headersSent) res.setHeader('Connection', 'close')
  const socket = req.socket as Socket | undefined
  if (socket === undefined) return void req.resume()
  let dropped = 0
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length
    if (dropped > LINGER_BYTES) socket.destroy()
  })
  req.resume()
  // Node closes a `Connection: close` socket with destroySoon() once the answer is written.
  ;(socket as Socket & { destroySoon(): void }).destroySoon = () => {
    socket.end()
    setTimeout(() => socket.destroy(), LINGER_MS).unref()
  }
}
