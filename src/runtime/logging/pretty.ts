import type { LogLevel } from './levels.js'
import { safeJson } from './printable.js'

/** ANSI colours used by pretty output (only when the stream is a terminal). */
export const ANSI = Object.freeze({
  reset: '\x1b[0m',
  red: '\x1b[31m',
  green: '\x1b[32m',
  yellow: '\x1b[33m',
  magenta: '\x1b[35m',
  cyan: '\x1b[36m',
})

const BADGE_COLOR: Readonly<Record<LogLevel, string>> = {
  debug: ANSI.cyan,
  info: ANSI.green,
  warn: ANSI.yellow,
  error: ANSI.red,
}

export type Badges = Readonly<Record<LogLevel, string>>

/** `[DEBUG]`, `[INFO]`, … computed once, coloured or not. */
export function badges(colors: boolean): Badges {
  const badge = (level: LogLevel) => {
    const text = `[${level.toUpperCase()}]`
    return colors ? BADGE_COLOR[level] + text + ANSI.reset : text
  }
  return Object.freeze({
    debug: badge('debug'),
    info: badge('info'),
    warn: badge('warn'),
    error: badge('error'),
  })
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0')
}

/** Local wall-clock time `HH:MM:SS.mmm`. */
export function clockTime(date: Date): string {
  return `${pad(date.getHours(), 2)}:${pad(date.getMinutes(), 2)}:${pad(date.getSeconds(), 2)}.${pad(date.getMilliseconds(), 3)}`
}

function stringifyMeta(meta: object): string {
  try {
    const text = JSON.stringify(meta)
    return text === undefined || text === '{}' ? '' : safeJson(text)
  } catch {
    return '{"logError":"metadata could not be serialised"}'
  }
}

/**
 * `<time> [LEVEL] <message> <meta as JSON>` plus a newline; meta is left out when empty. The
 * message arrives escaped: the `logger` singleton escapes what it is given, and the request
 * logger escapes each part of its line (it adds colours and continuation lines of its own).
 */
export function prettyLine(
  badge: string,
  date: Date,
  message: string | undefined,
  meta: object | undefined,
): string {
  const extra = meta === undefined ? '' : stringifyMeta(meta)
  const text = message === undefined ? extra : extra === '' ? message : `${message} ${extra}`
  return `${clockTime(date)} ${badge} ${text}\n`
}

/** Colours are used only on a terminal, and never when NO_COLOR is set. */
export function useColors(stream: { isTTY?: boolean | undefined }): boolean {
  return stream.isTTY === true && !process.env.NO_COLOR
}
