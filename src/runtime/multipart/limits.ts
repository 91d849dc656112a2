import type { FileField } from '../../shared/file-field.js'
import type { GuardLimits } from '../guards/limits.js'

/** The bounds of one multipart body, from the route's file fields and its guard limits. */
export interface MultipartLimits {
  /** Bytes of one text field: enough for `maxStringLength` characters of UTF-8. */
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
}

export const HEADER_PAIRS = 8
export const HEADER_SIZE = 16 * 1024

export function multipartLimits(
  fields: Readonly<Record<string, FileField>>,
  guard: GuardLimits,
): MultipartLimits {
  let files = 1
  for (const name in fields) files += fields[name]!.max
  return Object.freeze({
    fieldSize: guard.maxStringLength * 4,
    fields: guard.maxArrayLength,
    files,
    parts: guard.maxArrayLength + files,
    headerPairs: HEADER_PAIRS,
    headerSize: HEADER_SIZE,
  })
}
