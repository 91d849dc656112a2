import { channel } from 'node:diagnostics_channel'
import { boundedStream, dropCounter, dropNotice, MAX_BUFFER_BYTES } from './bounded-stream.js'
import type { SinkOptions } from './console-sink.js'
import { type FlatWriter, flatFields } from './flat-record.js'
import { isoNow } from './iso-time.js'
import { flatJsonLine, JSON_PREFIX } from './json-line.js'
import type { LogLevel } from './levels.js'
import { badges, prettyLine, useColors } from './pretty.js'
import { safeJson } from './printable.js'
import { safeStream } from './safe-stream.js'
import { type Destination, turnBuffered } from './turn-buffer.js'
import type { Logger, LogSink, LogStream } from './types.js'

/** The part of the pino module shapeguard uses (it is loaded lazily, never imported). */
export interface PinoModule {
  (options: Record<string, unknown>, destination: LogStream): Logger
  destination(options: { dest: number; maxLength: number }): Destination & {
    on(event: 'drop', listener: (data: unknown) => void): unknown
  }
  readonly symbols?: { readonly streamSym?: symbol }
}

function isoTimestamp(): string {
  return ',"time":"' + isoNow() + '"'
}

// pino-pretty's approach without the dependency: a destination that renders pino's JSON lines.
function prettyDestination(stream: LogStream, colors: boolean): LogStream {
  const badge = badges(colors)
  return {
    write(line: string) {
      let record: Record<string, unknown>
      try {
        record = JSON.parse(line)
      } catch {
        return stream.write(line)
      }
      const { level, time, message, ...rest } = record
      const b = badge[level as LogLevel] ?? `[${String(level).toUpperCase()}]`
      const date = typeof time === 'string' ? new Date(time) : new Date()
      const meta = Object.keys(rest).length > 0 ? rest : undefined
      return stream.write(
        prettyLine(b, date, typeof message === 'string' ? message : undefined, meta),
      )
    },
  }
}

// pino (10 and later) traces the serialisation of each record on this channel: while anyone
// listens, every record goes through pino, so that the listener sees them all.
const asJsonStart = channel('tracing:pino_asJson:start')
const asJsonEnd = channel('tracing:pino_asJson:end')
const asJsonError = channel('tracing:pino_asJson:error')

function traced(): boolean {
  return asJsonStart.hasSubscribers || asJsonEnd.hasSubscribers || asJsonError.hasSubscribers
}

// The flat path is used only when pino, as loaded (a wrapper may have added a mixin, formatters
// or streams), writes to shapeguard's destination alone and, asked at mount, wrote these records
// exactly as the flat path does: the request logger's shapes, and the values whose writing could
// differ (quotes, backslashes, controls, long strings, numbers that print apart, an undefined).
const PROBES: readonly (readonly [LogLevel, Readonly<Record<string, unknown>>, string?])[] = [
  [
    'info',
    {
      requestId: 'req_0190a1b2c3d4e5f6a7b8c9d0',
      method: 'GET',
      endpoint: '/users/:id',
      status: 200,
      duration_ms: 1.25,
    },
  ],
  [
    'warn',
    {
      requestId: undefined,
      quote: 'a "b" \\c',
      control: 'tab\there\nline\u0001',
      long: `${'x'.repeat(120)}"`,
      zero: -0,
      nan: Number.NaN,
      large: 1e21,
      small: 1e-7,
      slow: true,
      off: false,
    },
    'message "quoted" \\ \u0007',
  ],
  ['error', {}],
  ['debug', { path: '/' }, '>> GET /'],
]
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

function agrees(logger: Logger, written: string[]): boolean {
  for (const [level, record, message] of PROBES) {
    written.length = 0
    try {
      if (message === undefined) logger[level]({ ...record })
      else logger[level]({ ...record }, message)
    } catch {
      return false
    }
    const fields = flatFields(record, message)
    const line = written[0]
    if (written.length !== 1 || line === undefined || fields === undefined) return false
    const at = JSON_PREFIX[level].length
    const time = line.slice(at, at + 24)
    if (!ISO.test(time) || line !== flatJsonLine(level, time, fields)) return false
  }
  return true
}

/**
 * pino configured to write the same records as every other backend: `level` as a string,
 * `time` in ISO 8601, no pid/hostname, the message under `message`.
 * Filtering is the singleton's job, so pino itself lets every level through.
 * In JSON mode, flat records (the request logger's) skip pino's general serialiser for the same
 * line, written to the same destination.
 */
export function createPinoSink(pino: PinoModule, options: SinkOptions): LogSink {
  const target = options.stream ?? process.stdout
  const colors = options.pretty && useColors(target)
  const config = {
    level: 'debug',
    base: undefined,
    messageKey: 'message',
    timestamp: isoTimestamp,
    formatters: { level: (label: string) => ({ level: label }) },
    // Records are already redacted and depth-capped; pino must not cut them shorter.
    depthLimit: 64,
    edgeLimit: 100_000,
  }
  if (options.pretty) {
    const out = boundedStream(
      safeStream(target),
      target,
      options.maxBufferBytes,
      dropNotice(true, colors),
    )
    const logger = pino(config, prettyDestination(out, colors))
    return Object.freeze({ backend: 'pino', logger, pretty: true, colors, flat: undefined })
  }
  // pino's own destination (sonic-boom on fd 1) for JSON, guarded like every other stream, and
  // handed each turn's lines at once. It holds no more than maxBufferBytes itself (sonic-boom's
  // maxLength): what it drops comes back in a 'drop' event, counted.
  let out: LogStream
  const notice = dropNotice(false, false)
  if (options.stream === undefined) {
    const { maxBufferBytes = MAX_BUFFER_BYTES } = options
    const maxLength = maxBufferBytes === Number.POSITIVE_INFINITY ? 0 : maxBufferBytes
    const destination = pino.destination({ dest: process.stdout.fd ?? 1, maxLength })
    out = turnBuffered(safeStream(destination), destination)
    const drops = dropCounter(destination, (text) => out.write(text), notice)
    destination.on('drop', (data: unknown) => drops.drop(String(data)))
  } else {
    const stream = options.stream
    out = boundedStream(safeStream(stream), stream, options.maxBufferBytes, notice)
  }
  // While probing, pino's lines are kept here instead of written.
  let probed: string[] | undefined = []
  const destination: LogStream = {
    // pino's JSON leaves U+2028, U+2029 and C1 controls raw; every backend's records escape them.
    write(line: string) {
      if (probed !== undefined) return probed.push(line) > 0
      return out.write(safeJson(line))
    },
  }
  const logger = pino(config, destination)
  // Probe lines must reach no one: not with another stream beside ours, nor while traced.
  const streamSym = pino.symbols?.streamSym
  const alone = streamSym !== undefined && (logger as never)[streamSym] === destination
  const same = alone && !traced() && agrees(logger, probed)
  probed = undefined
  const flat: FlatWriter = (level, record, message) => {
    if (traced()) return false
    const fields = flatFields(record, message)
    if (fields === undefined) return false
    out.write(flatJsonLine(level, isoNow(), fields))
    return true
  }
  return Object.freeze({
    backend: 'pino',
    logger,
    pretty: false,
    colors,
    flat: same ? flat : undefined,
  })
}
