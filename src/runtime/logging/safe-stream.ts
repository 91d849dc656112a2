import type { LogStream } from './types.js'

type Listenable = LogStream & {
  on?: (event: 'error', listener: (error: unknown) => void) => unknown
}

// One guard per stream, so mounting shapeguard() many times adds one 'error' listener, not many.
const guards = new WeakMap<object, LogStream>()

/**
 * `stream` behind a write that cannot throw and that stops for good once the stream has failed
 * (stdout `EPIPE` when the reader went away, a destination error): a broken log stream costs
 * the log lines, never the process or the requests. The 'error' listener is attached once, at
 * creation, so the hot path pays one flag check.
 */
export function safeStream(stream: LogStream): LogStream {
  const known = guards.get(stream)
  if (known !== undefined) return known
  let broken = false
  const target = stream as Listenable
  if (typeof target.on === 'function') {
    target.on('error', () => {
      broken = true
    })
  }
  const safe: LogStream = {
    isTTY: stream.isTTY,
    write(line: string) {
      if (broken) return false
      try {
        return stream.write(line)
      } catch {
        broken = true
        return false
      }
    },
  }
  guards.set(stream, safe)
  return safe
}
