import { boundedStream, dropNotice } from './bounded-stream.js'
import { type FlatWriter, flatFields } from './flat-record.js'
import { isoNow } from './iso-time.js'
import { flatJsonLine, jsonLine } from './json-line.js'
import { LOG_LEVELS, type LogLevel } from './levels.js'
import { badges, prettyLine, useColors } from './pretty.js'
import { safeStream } from './safe-stream.js'
import type { Logger, LogMethod, LogSink, LogStream } from './types.js'

export interface SinkOptions {
  pretty: boolean
  stream?: LogStream | undefined
  /** `logger.maxBufferBytes`: what may wait in the stream before lines are dropped. */
  maxBufferBytes?: number | undefined
}

function split(a: unknown, b: unknown): [object | undefined, string | undefined] {
  if (typeof a === 'string') return [undefined, a]
  if (a !== null && typeof a === 'object') return [a, typeof b === 'string' ? b : undefined]
  return [undefined, a === undefined ? undefined : String(a)]
}

/**
 * The built-in backend: JSON records or pretty lines written straight to a stream
 * (`process.stdout` by default), never through `console.*`.
 */
export function createConsoleSink(options: SinkOptions): LogSink {
  const target = options.stream ?? process.stdout
  const colors = options.pretty && useColors(target)
  const stream = boundedStream(
    safeStream(target),
    target,
    options.maxBufferBytes,
    dropNotice(options.pretty, colors),
  )
  const badge = badges(colors)
  const method = (level: LogLevel): LogMethod => {
    const write = options.pretty
      ? (meta: object | undefined, message: string | undefined) =>
          stream.write(prettyLine(badge[level], new Date(), message, meta))
      : (meta: object | undefined, message: string | undefined) =>
          stream.write(jsonLine(level, isoNow(), meta, message))
    return ((a: unknown, b?: unknown) => {
      const [meta, message] = split(a, b)
      write(meta, message)
    }) as LogMethod
  }
  const logger = Object.fromEntries(LOG_LEVELS.map((l) => [l, method(l)])) as unknown as Logger
  // `jsonLine`'s line for the same record, without its general checks.
  const flat: FlatWriter = (level, record, message) => {
    const fields = flatFields(record, message)
    if (fields === undefined) return false
    stream.write(flatJsonLine(level, isoNow(), fields))
    return true
  }
  return Object.freeze({
    backend: 'console',
    logger,
    pretty: options.pretty,
    colors,
    flat: options.pretty ? undefined : flat,
  })
}
