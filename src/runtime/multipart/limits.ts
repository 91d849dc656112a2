import type { FileField } from '../../shared/file-field.js'
import type { GuardLimits } from '../guards/limits.js'

/** The bounds of one multipart body, from the route's file fields and its guard limits. */
export interface MultipartLimits {
  /** Bytes of one text field: `maxStringLength` characters of UTF-8, within `TEXT_BYTES`. */
  readonly fieldSize: number
  /** Text fields: `maxArrayLength`, the most values the body guard lets an array hold. */
  readonly fields: number
  /** File parts: every field's `max`, and one more, so that the extra file is named. */
  readonly files: number
  readonly parts: number
  /** Header lines kept per part; a part needs two or three. */
  readonly headerPairs: number
  /** Bytes of one part's headers: a long filename fits, a 1 MB header does not. */
  readonly headerSize: number
  /** Bytes of all text fields together (names and values). */
  readonly textBytes: number
  /**
   * The most bytes a body may have before its parts' delimiters are counted: every file at its
   * `maxBytes`, the text budget, and `EDGE_BYTES`; `bodyBytes()` adds the delimiters.
   */
  readonly contentBytes: number
}

export const HEADER_PAIRS = 8
export const HEADER_SIZE = 16 * 1024

/**
 * The text fields of one body together, in bytes: a form's fields are short (a title, a few
 * ids); longer text belongs in a file field, with its own `maxBytes`.
 */
export const TEXT_BYTES = 1_000_000

/** A preamble before the first part and an epilogue after the last, which clients rarely send. */
export const EDGE_BYTES = 64 * 1024

export function multipartLimits(
  fields: Readonly<Record<string, FileField>>,
  guard: GuardLimits,
): MultipartLimits {
  let files = 1
  let fileBytes = 0
  for (const name in fields) {
    files += fields[name]!.max
    fileBytes += fields[name]!.max * fields[name]!.maxBytes
  }
  return Object.freeze({
    fieldSize: Math.min(guard.maxStringLength * 4, TEXT_BYTES),
    fields: guard.maxArrayLength,
    files,
    parts: guard.maxArrayLength + files,
    headerPairs: HEADER_PAIRS,
    headerSize: HEADER_SIZE,
    textBytes: TEXT_BYTES,
    contentBytes: fileBytes + TEXT_BYTES + EDGE_BYTES,
  })
}

/**
 * The most bytes a body with this boundary may have: past it, the body holds more than its
 * route allows, whatever its parts, and is refused as it streams.
 */
export function bodyBytes(limits: MultipartLimits, boundary: string): number {
  // Each part: `\r\n--boundary\r\n`, its headers and the blank line; the close adds `--\r\n`.
  const perPart = boundary.length + 6 + limits.headerSize + 4
  return limits.contentBytes + (limits.parts + 1) * perPart
}
