import type { SinkOptions } from './console-sink.js'
import { isoNow } from './iso-time.js'
import type { LogLevel } from './levels.js'
import { badges, prettyLine, useColors } from './pretty.js'
import { safeJson } from './printable.js'
import { safeStream } from './safe-stream.js'
import type { Logger, LogSink, LogStream } from './types.js'

/** The part of the pino module shapeguard uses (it is loaded lazily, never imported). */
export interface PinoModule {
  (options: Record<string, unknown>, destination: LogStream): Logger
  destination(options: { dest: number }): LogStream
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

// pino's JSON leaves U+2028, U+2029 and C1 controls raw; every backend's records escape them.
function jsonDestination(stream: LogStream): LogStream {
  return { write: (line: string) => stream.write(safeJson(line)) }
}

/**
 * pino configured to write the same records as every other backend: `level` as a string,
 * `time` in ISO 8601, no pid/hostname, the message under `message`.
 * Filtering is the singleton's job, so pino itself lets every level through.
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
  // pino's own destination (sonic-boom on fd 1) for JSON, guarded like every other stream.
  const destination = options.pretty
    ? prettyDestination(safeStream(target), colors)
    : jsonDestination(
        safeStream(options.stream ?? pino.destination({ dest: process.stdout.fd ?? 1 })),
      )
  const logger = pino(config, destination)
  return Object.freeze({ backend: 'pino', logger, pretty: options.pretty, colors })
}
