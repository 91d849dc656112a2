import type { Request, Response } from 'express'

/** The most bytes of a refused body read and thrown away so that the connection can be kept. */
export const DRAIN_BYTES = 1_000_000

/** How long a client that stopped sending may hold its connection once answered. */
export const STALL_MS = 1000

/**
 * After a refusal, the rest of the body is read and thrown away up to `DRAIN_BYTES`, so that a
 * client still sending reads the answer rather than a reset connection. Past that bound, or when
 * Content-Length says more remains, the answer carries `Connection: close` and the socket is
 * closed once it is written; a client that stalls is closed `STALL_MS` after its answer.
 * @param consumed bytes of the body already read
 */
export function drainAfterRefusal(req: Request, res: Response, consumed: number): void {
  if (req.readableEnded || req.destroyed) return
  const length = Number(req.headers['content-length'])
  const left = Number.isSafeInteger(length) ? length - consumed : DRAIN_BYTES + 1
  if (left > DRAIN_BYTES && !res.headersSent) res.setHeader('Connection', 'close')
  const close = () => req.socket?.destroy()
  const closeAnswered = () => {
    if (res.writableFinished) close()
    else res.once('finish', close)
  }
  let drained = 0
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length
    if (drained > DRAIN_BYTES) {
      req.pause()
      closeAnswered()
    }
  })
  req.on('error', () => {})
  req.resume()
  res.once('finish', () => {
    if (!req.readableEnded) setTimeout(() => req.readableEnded || close(), STALL_MS).unref()
  })
}
