import type { Response } from 'express'
import { peekContext } from '../core/context.js'
import { OpenStream } from './open-stream.js'
import { isStreamClosed } from './stream-closed.js'

/** The request's stream when one was started (open or ended), for the error middleware. */
export function streamOf(res: Response): OpenStream | undefined {
  const stream = peekContext(res)?.stream
  return stream instanceof OpenStream ? stream : undefined
}

/**
 * Whether an error reaching asyncHandler or the error middleware needs nothing more: a
 * `StreamClosedError` (the client went), or the error the stream already ended with.
 */
export function settledByStream(res: Response, err: unknown): boolean {
  if (isStreamClosed(err)) return true
  const stream = streamOf(res)
  return stream !== undefined && stream.failure !== undefined && stream.failure === err
}
