import { isoNow } from './iso-time.js'
import { jsonLine } from './json-line.js'
import { badges, prettyLine } from './pretty.js'
import type { LogStream } from './types.js'

/** What is read of a stream to bound what waits in it: Node's Writable has all of it. */
export interface Drains {
  readonly writableLength?: unknown
  once?(event: 'drain', listener: () => void): unknown
}

/** `logger.maxBufferBytes` by default: 16 MiB. */
export const MAX_BUFFER_BYTES = 16 * 1024 * 1024

/** The warn line that says how many lines were dropped, as JSON or pretty. */
export type DropNotice = (dropped: number) => string

export function dropNotice(pretty: boolean, colors: boolean): DropNotice {
  const badge = badges(colors).warn
  return (dropped) => {
    const meta = { droppedLines: dropped }
    const message = `shapeguard: ${dropped} log lines dropped: the log stream's reader fell behind (logger.maxBufferBytes)`
    return pretty
      ? prettyLine(badge, new Date(), message, meta)
      : jsonLine('warn', isoNow(), meta, message)
  }
}

function lineCount(text: string): number {
  let count = 0
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++
  return Math.max(count, 1)
}

/** Counts dropped lines; writes the notice when `stream` drains, or before the next line goes. */
export interface DropCounter {
  drop(text: string): void
  /** The notice the next report writes, or undefined when no line was dropped since the last. */
  pending(): string | undefined
  /** Writes `text` (pending()'s notice, by default) and starts counting again. */
  report(text?: string): void
}

export function dropCounter(
  stream: object,
  write: (text: string) => unknown,
  notice: DropNotice,
): DropCounter {
  let dropped = 0
  let waiting = false
  const pending = () => (dropped === 0 ? undefined : notice(dropped))
  const report = (text = pending()) => {
    if (text === undefined) return
    dropped = 0
    write(text)
  }
  const drained = () => {
    waiting = false
    report()
  }
  return {
    pending,
    drop(text) {
      dropped += lineCount(text)
      const { once } = stream as Drains
      if (!waiting && typeof once === 'function') {
        waiting = true
        once.call(stream, 'drain', drained)
      }
    },
    report,
  }
}

/**
 * `out` (a `safeStream` over `target`) dropping each line that would take what `target` holds
 * unwritten past `maxBytes` (a reader that stalls would otherwise grow the process without end),
 * as sonic-boom's `maxLength` does for pino's destination, with a warn line saying how many once
 * it drains. A stream that does not say how much it holds (no `writableLength`) is not bounded.
 */
export function boundedStream(
  out: LogStream,
  target: object,
  maxBytes: number | undefined = MAX_BUFFER_BYTES,
  notice: DropNotice,
): LogStream {
  const measured = target as Drains
  if (maxBytes === Number.POSITIVE_INFINITY || typeof measured.writableLength !== 'number') {
    return out
  }
  const drops = dropCounter(target, (text) => out.write(text), notice)
  return {
    isTTY: out.isTTY,
    write(line: string) {
      // The notice of lines dropped before goes out first, and counts against the cap too.
      const notice = drops.pending()
      const adding = line.length + (notice === undefined ? 0 : notice.length)
      if ((measured.writableLength as number) + adding > maxBytes) {
        drops.drop(line)
        return false
      }
      drops.report(notice)
      return out.write(line)
    },
  }
}
