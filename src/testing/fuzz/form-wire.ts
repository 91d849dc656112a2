import { listSingles } from '../../runtime/pipeline/query-array-keys.js'
import { isPlainObject } from '../../shared/is-object.js'
import { draftBytes, type UploadDraft } from '../arbitrary/upload.js'
import { guarded, scalar, type Wire } from './wire.js'

/** The text fields of a form, in order: a repeated name is an array's items. */
export type FormFields = readonly (readonly [name: string, value: string])[]

/** The boundary of every multipart body the fuzzer sends; a value holding it cannot travel. */
export const BOUNDARY = 'shapeguard-fuzz-7c1e5a'
/** The Content-Type of those bodies. */
export const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`

const no = { ok: false } as const

// A field name read back as sent: printable ASCII without the quote and the backslash of the
// part header's quoted string (a browser would percent-encode a quote, which no parser undoes).
const fieldName = /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/

// A value whose UTF-8 reads back the same (no lone surrogate), without the boundary.
const travels = (s: string) =>
  !s.includes(BOUNDARY) && Buffer.from(s, 'utf8').toString('utf8') === s

/**
 * A body object as form fields, or not representable: scalars as strings, arrays as repeated
 * fields only for the keys the schema takes arrays for (another repeated field is a 400), at most
 * `maxFields` fields (the server's count limit).
 */
export function formWire(
  value: unknown,
  repeatable: ReadonlySet<string>,
  maxFields: number,
): Wire<FormFields> {
  if (value === undefined) return { ok: true, wire: [] }
  if (!isPlainObject(value)) return no
  const fields: [string, string][] = []
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue
    if (!fieldName.test(key) || (Array.isArray(v) && !repeatable.has(key))) return no
    for (const item of Array.isArray(v) ? v : [v]) {
      const s = scalar(item)
      if (s === undefined || !travels(s)) return no
      fields.push([key, s])
    }
  }
  return fields.length <= maxFields ? { ok: true, wire: fields } : no
}

/** Form fields as an object, as the server reads them: a name sent again gathers an array. */
export function mergeFields(fields: FormFields): Record<string, unknown> {
  const body: Record<string, unknown> = Object.create(null)
  for (const [name, value] of fields) {
    const prior = body[name]
    body[name] =
      prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value]
  }
  return body
}

/** The body the server hands the schema for form fields: `lists` keys always arrays. */
export function formFromWire(fields: FormFields, lists: ReadonlySet<string>): unknown {
  return listSingles(guarded(mergeFields(fields)), lists)
}

const crlf = '\r\n'

/**
 * A `multipart/form-data` body (boundary `BOUNDARY`): the text fields, then the files, each with
 * its filename and declared type written raw (a hostile filename travels as it is).
 */
export function multipartBody(fields: FormFields, uploads: readonly UploadDraft[]): Buffer {
  const chunks: Buffer[] = []
  for (const [name, value] of fields)
    chunks.push(
      Buffer.from(
        `--${BOUNDARY}${crlf}Content-Disposition: form-data; name="${name}"${crlf}${crlf}${value}${crlf}`,
      ),
    )
  for (const upload of uploads) {
    chunks.push(
      Buffer.from(
        `--${BOUNDARY}${crlf}Content-Disposition: form-data; name="${upload.field}"; filename="${upload.filename}"${crlf}` +
          `Content-Type: ${upload.type}${crlf}${crlf}`,
      ),
      draftBytes(upload),
      Buffer.from(crlf),
    )
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--${crlf}`))
  return Buffer.concat(chunks)
}
