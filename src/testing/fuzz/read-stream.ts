import type { IncomingMessage } from 'node:http'
import { NdjsonParser, SseParser } from '../../shared/event-stream.js'

// The answers of a streaming route read within bounds: a stream may never end (a live feed), so
// the fuzzer reads a number of events or for a time, then hangs up.

/** The media types of the two kinds of stream. */
export const streamMedia = { sse: 'text/event-stream', ndjson: 'application/x-ndjson' } as const

/** How much of one answer of a streaming route the fuzzer reads before it hangs up. */
export interface StreamBounds {
  /** Events (SSE) or lines (NDJSON) read. */
  readonly events: number
  /** Milliseconds from the answer's head. */
  readonly ms: number
}

/** One event of an SSE answer (its name and data), or one line of an NDJSON answer. */
export interface StreamItem {
  /** The SSE event's name (`message` without an `event:` field); undefined for an NDJSON line. */
  readonly event?: string
  readonly data: string
}

/** What the fuzzer read of a streamed answer. */
export interface StreamRead {
  readonly items: readonly StreamItem[]
  /**
   * Why reading stopped: the answer ended; `events` were read; `time` ran out; `aborted`, the
   * server closed the connection before the answer's end; `broken`, a line past the parser's bound.
   */
  readonly stop: 'end' | 'events' | 'time' | 'aborted' | 'broken'
}

/** An answer's body as read: its text (up to a size) and, for a stream, its items. */
export interface BoundedBody {
  readonly text: string
  readonly stream?: StreamRead
}

// The text kept of an answer (for the echo check, and the JSON of an error answer): a stream's
// items are parsed beyond it, any other answer of a streaming route is cut at it.
const MAX_TEXT = 1024 * 1024

/** The media type of a Content-Type header, lower case, without parameters. */
export function essenceOf(type: string | string[] | undefined): string | undefined {
  return typeof type === 'string' ? type.split(';')[0]!.trim().toLowerCase() : undefined
}

// `parse(text, end)`: the items a piece completes; at the end, NDJSON's last line without an end.
type Parse = (text: string, end: boolean) => StreamItem[]

function parserOf(media: string | undefined): Parse | undefined {
  if (media === streamMedia.sse) {
    const sse = new SseParser()
    return (text) => sse.push(text).map((e) => ({ event: e.event, data: e.data }))
  }
  if (media !== streamMedia.ndjson) return undefined
  const ndjson = new NdjsonParser()
  return (text, end) =>
    (end ? [...ndjson.push(text), ...ndjson.end()] : ndjson.push(text)).map((data) => ({ data }))
}

/**
 * Reads an answer of a streaming route within `bounds`: an SSE or NDJSON one (by its Content-Type)
 * parsed piece by piece until it ends, `bounds.events` items are read or `bounds.ms` pass; any
 * other kept as text within the same time and up to a size. The answer is destroyed (the
 * connection closed) when reading stops before its end.
 */
export function readBounded(res: IncomingMessage, bounds: StreamBounds): Promise<BoundedBody> {
  const parse = parserOf(essenceOf(res.headers['content-type']))
  const decoder = new TextDecoder()
  const items: StreamItem[] = []
  let text = ''
  return new Promise((resolve) => {
    let settled = false
    const stop = (why: StreamRead['stop']) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (why !== 'end') res.destroy()
      const stream = parse && { items: items.slice(0, bounds.events), stop: why }
      resolve(stream ? { text, stream } : { text })
    }
    const timer = setTimeout(() => stop('time'), bounds.ms)
    const take = (piece: string, end = false) => {
      if (text.length < MAX_TEXT) text += piece.slice(0, MAX_TEXT - text.length)
      // Not a stream: what is kept is all the checks read of it.
      else if (parse === undefined) return stop('events')
      if (parse === undefined) return
      try {
        items.push(...parse(piece, end))
      } catch {
        return stop('broken')
      }
      if (items.length >= bounds.events) stop('events')
    }
    res.on('data', (chunk: Buffer) => {
      if (!settled) take(decoder.decode(chunk, { stream: true }))
    })
    res.on('end', () => {
      if (settled) return
      take(decoder.decode(), true)
      stop('end')
    })
    // The server closed the connection mid-answer (a chunked answer without its last chunk).
    res.on('error', () => stop('aborted'))
    res.on('close', () => stop(res.complete ? 'end' : 'aborted'))
  })
}
