import type { LogLevel } from './levels.js'

// What makes a value take the general path: DEL, C1 controls and U+2028/U+2029, which the general
// path escapes after JSON.stringify, and any surrogate, because pino writes a lone one raw (then
// encoded as U+FFFD) on some Node lines and escaped on others.
const UNSURE = /[\u007f-\u009f\u2028\u2029\ud800-\udfff]/
// What a string must not hold to be written between two quotes as it is: UNSURE, and what
// JSON.stringify escapes (quote, backslash, C0 controls).
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const ESCAPED = /["\\\u0000-\u001f\u007f-\u009f\u2028\u2029\ud800-\udfff]/

// The JSON of a string, or undefined when it holds an UNSURE character.
function quoted(text: string): string | undefined {
  if (!ESCAPED.test(text)) return `"${text}"`
  return UNSURE.test(text) ? undefined : JSON.stringify(text)
}

/**
 * `String(value)` for a finite number, cheaper for hundredths (durations are rounded to them):
 * such a number's shortest round-trip form is its two decimals without trailing zeros, while V8's
 * general conversion (the shortest digits of any double) costs more (bench/logging.bench.ts).
 */
function numberText(value: number): string {
  const hundredths = Math.round(value * 100)
  if (hundredths / 100 !== value || hundredths <= 0 || hundredths >= 2 ** 31) return `${value}`
  const whole = Math.floor(hundredths / 100)
  const cents = hundredths - whole * 100
  if (cents === 0) return `${whole}`
  if (cents % 10 === 0) return `${whole}.${cents / 10}`
  return cents < 10 ? `${whole}.0${cents}` : `${whole}.${cents}`
}

/**
 * The members of a JSON record after `level` and `time`, each with its leading comma, for a
 * record whose values are strings, numbers, booleans or undefined and whose keys are the caller's
 * own plain ASCII names: the same text `JSON.stringify`, and so pino and `jsonLine`, write for it.
 * Undefined when a value is of another type or holds a character in UNSURE: the caller then logs
 * through its backend's general path.
 * Written by hand: `JSON.stringify` of the request record costs more, most with a string built
 * by concatenation, as a request ID is (bench/logging.bench.ts measures a logged request).
 */
export function flatFields(
  record: Readonly<Record<string, unknown>>,
  message: string | undefined,
): string | undefined {
  let fields = ''
  for (const key in record) {
    const value = record[key]
    let json: string | undefined
    switch (typeof value) {
      case 'string':
        json = quoted(value)
        if (json === undefined) return undefined
        break
      case 'number':
        json = Number.isFinite(value) ? numberText(value) : 'null'
        break
      case 'boolean':
        json = value ? 'true' : 'false'
        break
      case 'undefined':
        continue
      default:
        return undefined
    }
    fields += `,"${key}":${json}`
  }
  if (message !== undefined) {
    const json = quoted(message)
    if (json === undefined) return undefined
    fields += `,"message":${json}`
  }
  return fields
}

/**
 * Writes a flat record (see `flatFields`) as the exact line `logger[level](record, message)`
 * would write, faster; false, having written nothing, when only the general path can promise
 * that line, and the caller then logs through `logger`.
 */
export type FlatWriter = (
  level: LogLevel,
  record: Readonly<Record<string, unknown>>,
  message?: string,
) => boolean
