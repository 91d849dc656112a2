import { boundedStream, dropNotice } from './bounded-stream.js'
import type { SinkOptions } from './console-sink.js'
import { isoNow } from './iso-time.js'
import { jsonLine } from './json-line.js'
import type { LogLevel } from './levels.js'
import { badges, prettyLine, useColors } from './pretty.js'
import { safeStream } from './safe-stream.js'
import type { LogSink } from './types.js'
import { type WinstonLike, winstonAdapter } from './winston-adapter.js'

type Info = Record<string | symbol, unknown> & { level: string; message?: unknown }

/** The part of the winston module shapeguard uses (loaded lazily, never imported). */
export interface WinstonModule {
  createLogger(options: Record<string, unknown>): WinstonLike
  format: { printf(render: (info: Info) => string): unknown }
  Transport: new (options?: Record<string, unknown>) => object
}

const MESSAGE = Symbol.for('message')

/**
 * winston configured to write the same records (or pretty lines) as the other backends, through
 * one transport that writes each formatted line to the stream.
 */
export function createWinstonSink(winston: WinstonModule, options: SinkOptions): LogSink {
  const out = options.stream ?? process.stdout
  const colors = options.pretty && useColors(out)
  const stream = boundedStream(
    safeStream(out),
    out,
    options.maxBufferBytes,
    dropNotice(options.pretty, colors),
  )
  const badge = badges(colors)
  const render = (info: Info): string => {
    const { level, message, ...rest } = info
    const text = typeof message === 'string' ? message : undefined
    const meta = Object.keys(rest).length > 0 ? rest : undefined
    return options.pretty
      ? prettyLine(badge[level as LogLevel], new Date(), text, meta)
      : jsonLine(level as LogLevel, isoNow(), meta, text)
  }
  class LineTransport extends winston.Transport {
    log(info: Info, callback: () => void) {
      stream.write(info[MESSAGE] as string)
      callback()
    }
  }
  const target = winston.createLogger({
    level: 'debug',
    format: winston.format.printf(render),
    transports: [new LineTransport()],
  })
  return Object.freeze({
    backend: 'winston',
    logger: winstonAdapter(target),
    pretty: options.pretty,
    colors,
    flat: undefined,
  })
}
