// Reading a stream's text as its client does: Server-Sent Events by the WHATWG parsing rules
// (html.spec.whatwg.org, "Parsing an event stream") and NDJSON one value a line. The client
// (shapeguard/client) and the fuzzer read streams with these; neither touches the network.

/** One event of a Server-Sent Events stream, as a browser's EventSource dispatches it. */
export interface ServerSentEvent {
  /** The `event:` field, `'message'` when the event has none. */
  readonly event: string
  /** The `data:` lines joined by LF. */
  readonly data: string
  /** The last event ID after this event (an `id:` carries over to the events after it). */
  readonly id: string
}

/** The longest line a parser holds before it refuses the stream: a bound on a hostile server. */
export const maxStreamLine = 16 * 1024 * 1024

/** Splits text given in pieces into lines ended by CRLF, LF or CR, one line at a time. */
class LineSplitter {
  private rest = ''
  // A CR ended the last piece: an LF starting the next one belongs to it.
  private afterCr = false

  constructor(private readonly maxLine: number) {}

  push(text: string, line: (text: string) => void): void {
    if (text === '') return
    let from = 0
    if (this.afterCr && text.charCodeAt(0) === 10) from = 1
    this.afterCr = false
    for (let i = from; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (c !== 10 && c !== 13) continue
      line(this.rest + text.slice(from, i))
      this.rest = ''
      if (c === 13) {
        if (i + 1 === text.length) this.afterCr = true
        else if (text.charCodeAt(i + 1) === 10) i++
      }
      from = i + 1
    }
    this.rest += text.slice(from)
    if (this.rest.length > this.maxLine)
      throw new RangeError(`a stream line is longer than ${this.maxLine} characters`)
  }

  /** What is left after the last line end: an unterminated last line. */
  end(): string {
    const rest = this.rest
    this.rest = ''
    return rest
  }
}

/**
 * Parses a Server-Sent Events stream given as text in pieces (decoded with a streaming
 * `TextDecoder`): `push` returns the events the piece completed. `retry` and `lastEventId` follow
 * the stream, for a reconnection.
 */
export class SseParser {
  /** The reconnection delay the stream last asked for (ms), if any. */
  retry: number | undefined
  /**
   * The last event ID, sent back as `Last-Event-ID` on reconnection: an `id:` counts once its
   * block ends (a blank line), with or without data, as EventSource counts it.
   */
  lastEventId: string
  private idBuffer: string
  private readonly lines: LineSplitter
  private readonly maxData: number
  private data = ''
  private hasData = false
  private event = ''
  private first = true

  constructor(lastEventId = '', maxLine = maxStreamLine) {
    this.lastEventId = lastEventId
    this.idBuffer = lastEventId
    this.lines = new LineSplitter(maxLine)
    this.maxData = maxLine
  }

  push(text: string): ServerSentEvent[] {
    if (this.first && text.length > 0) {
      this.first = false
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    }
    const events: ServerSentEvent[] = []
    this.lines.push(text, (line) => this.line(line, events))
    return events
  }

  private line(line: string, events: ServerSentEvent[]): void {
    if (line === '') {
      this.lastEventId = this.idBuffer
      if (this.hasData)
        events.push({ event: this.event || 'message', data: this.data, id: this.lastEventId })
      this.data = ''
      this.hasData = false
      this.event = ''
      return
    }
    if (line.charCodeAt(0) === 58) return // ':' a comment (heartbeats)
    const colon = line.indexOf(':')
    const field = colon < 0 ? line : line.slice(0, colon)
    let value = colon < 0 ? '' : line.slice(colon + 1)
    if (value.charCodeAt(0) === 32) value = value.slice(1)
    if (field === 'data') {
      this.data = this.hasData ? `${this.data}\n${value}` : value
      this.hasData = true
      // Endless `data:` lines without a blank one: bounded as one line is.
      if (this.data.length > this.maxData)
        throw new RangeError(`an event's data is longer than ${this.maxData} characters`)
    } else if (field === 'event') this.event = value
    else if (field === 'id') {
      if (!value.includes('\0')) this.idBuffer = value
    } else if (field === 'retry' && /^[0-9]+$/.test(value)) this.retry = Number(value)
  }
}

/** Splits an NDJSON stream given as text in pieces into its lines (blank lines skipped). */
export class NdjsonParser {
  private readonly lines: LineSplitter

  constructor(maxLine = maxStreamLine) {
    this.lines = new LineSplitter(maxLine)
  }

  /** The lines the piece completed, each one JSON text. */
  push(text: string): string[] {
    const out: string[] = []
    this.lines.push(text, (line) => {
      if (line.trim() !== '') out.push(line)
    })
    return out
  }

  /** The last line when the stream ended without a line end. */
  end(): string[] {
    const rest = this.lines.end()
    return rest.trim() === '' ? [] : [rest]
  }
}
