import type { Response } from 'express'
import { peekContext } from '../core/context.js'
import { isStreamClosed } from '../core/stream-closed.js'
import { OpenStream } from './open-stream.js'

/** The request's stream when one was started (open or ended), for the error middleware. */
export function streamOf(res: Response): OpenStream | undefined {
  const stream = peekContext(res)?.stream
  return stream instanceof OpenStream ? stream : undefined
}

function causeOf(err: unknown): unknown {
  try {
    return (err as { cause?: unknown } | null)?.cause
  } catch {
    return undefined
  }
}

/**
 * Whether an error reaching asyncHandler or the error middleware needs nothing more, on a
 * request whose stream started: the error the stream already ended with, a `StreamClosedError`
 * from a send after the end, the request's abort reason (its time limit passed) or an error it
 * caused, or, once the client went, the abort it caused where the handler passed `req.signal` on
 * (the `StreamClosedError` is its `cause`). Without a stream, every error is answered.
 */
export function settledByStream(res: Response, err: unknown): boolean {
  const stream = streamOf(res)
  if (stream === undefined || stream.open) return false
  if (stream.failure !== undefined && stream.failure === err) return true
  if (isStreamClosed(err)) return true
  const reason = peekContext(res)?.abortReason
  if (reason !== undefined && (err === reason || causeOf(err) === reason)) return true
  return stream.clientGone && isStreamClosed(causeOf(err))
}
