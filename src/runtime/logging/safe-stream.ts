import { watchForFlush } from './flush-logs.js'
import type { LogStream } from './types.js'

type Listenable = LogStream & {
  on?: (event: 'error', listener: (error: unknown) => void) => unknown
}

/** Whether a stream has failed, as every log writer that uses it sees it. */
export interface StreamHealth {
  broken: boolean
}

// One 'error' listener per stream, however many backends, mounts and winston transports use it.
const healths = new WeakMap<object, StreamHealth>()
const guards = new WeakMap<object, LogStream>()

/**
 * The health of `stream`, watched from the first call on: its 'error' (stdout `EPIPE` when the
 * reader went away, a destination error) marks it broken instead of killing the process, which
 * is what an 'error' event without a listener does.
 */
export function streamHealth(stream: LogStream): StreamHealth {
  let health = healths.get(stream)
  if (health === undefined) {
    const state = { broken: false }
    const target = stream as Listenable
    if (typeof target.on === 'function') {
      target.on('error', () => {
        state.broken = true
      })
    }
    healths.set(stream, state)
    health = state
  }
  return health
}

/**
 * `stream` behind a write that cannot throw and that stops for good once the stream has failed:
 * a broken log stream costs the log lines, never the process or the requests. The stream is
 * watched at creation, so the hot path pays one flag check.
 */
export function safeStream(stream: LogStream): LogStream {
  const known = guards.get(stream)
  if (known !== undefined) return known
  const health = streamHealth(stream)
  watchForFlush(stream)
  const safe: LogStream = {
    isTTY: stream.isTTY,
    write(line: string) {
      if (health.broken) return false
      try {
        return stream.write(line)
      } catch {
        health.broken = true
        return false
      }
    },
  }
  guards.set(stream, safe)
  return safe
}
