/**
 * What a stream's `send` rejects with once the client has gone (or the stream has ended): a
 * handler may ignore it, and the error middleware neither answers nor logs it as an error.
 */
export class StreamClosedError extends Error {
  readonly code = 'STREAM_CLOSED'

  constructor() {
    super('The stream is closed: the client went away or the stream has ended')
    this.name = 'StreamClosedError'
  }
}

/** Whether `err` is a `StreamClosedError` (from any copy of the package: by its code). */
export function isStreamClosed(err: unknown): err is StreamClosedError {
  try {
    return (
      err instanceof StreamClosedError ||
      (err instanceof Error && (err as { code?: unknown }).code === 'STREAM_CLOSED')
    )
  } catch {
    // A thrown Proxy whose traps throw: not ours, and answered as any other throw.
    return false
  }
}
