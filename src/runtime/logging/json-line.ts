import type { LogLevel } from './levels.js'
import { safeJson } from './printable.js'

/** How every JSON record starts: `level`, then the opening quote of `time`. */
export const JSON_PREFIX: Readonly<Record<LogLevel, string>> = Object.freeze({
  debug: '{"level":"debug","time":"',
  info: '{"level":"info","time":"',
  warn: '{"level":"warn","time":"',
  error: '{"level":"error","time":"',
})

function stringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '{}'
  } catch {
    // Metadata is redacted (and so made safe) before it gets here; this is the last guard.
    return '{"logError":"metadata could not be serialised"}'
  }
}

/**
 * One JSON record, one line: `level` and `time` first, then the metadata, then `message` — the
 * same record pino writes when shapeguard configures it — with no raw line separator anywhere.
 */
export function jsonLine(
  level: LogLevel,
  time: string,
  meta: object | undefined,
  message: string | undefined,
): string {
  let line = JSON_PREFIX[level] + time + '"'
  if (meta !== undefined) {
    const body = stringify(meta)
    if (body.length > 2) line += ',' + body.slice(1, -1)
  }
  if (message !== undefined) line += ',"message":' + JSON.stringify(message)
  return safeJson(line) + '}\n'
}

/** The line of a record whose members `flatFields` wrote: nothing in it needs escaping. */
export function flatJsonLine(level: LogLevel, time: string, fields: string): string {
  return JSON_PREFIX[level] + time + '"' + fields + '}\n'
}
