import type { Arbitrary } from 'fast-check'
import { typeAllowed } from '../../runtime/multipart/sniff.js'
import { optionError } from '../../shared/error-codes.js'
import type { FileField } from '../../shared/file-field.js'
import {
  EXECUTABLE,
  type FileKind,
  fileArbitrary,
  fileKinds,
  MANY_FILES,
  type UploadDraft,
} from '../arbitrary/upload.js'
import type { FC } from '../load-fast-check.js'

type Fields = Readonly<Record<string, FileField>>

// The size of the executable sent as a PNG, unless the field takes fewer bytes.
const WRONG_TYPE_BYTES = 64

/** An oversized upload (`maxBytes + 1`) is sent only up to this size: 16 MiB, past the 10 MB default. */
export const OVERSIZE_BYTES = 16 * 1024 * 1024

/** A request's uploads made invalid or hostile in one way, and what the server must answer. */
export interface UploadCase {
  /** The uploads of the request, from the valid ones. */
  readonly uploads: (valid: readonly UploadDraft[]) => UploadDraft[]
  /** What the case tries, as a report names it. */
  readonly name: string
  /** The field a 422 must name (`files.avatar`): too many files, one missing, one undeclared. */
  readonly field?: string
  /** The statuses it must get (413, 415); any but a 5xx when neither this nor `field`. */
  readonly expect?: readonly number[]
  /** What no answer may hold: the raw hostile filename. */
  readonly echo?: readonly string[]
}

/**
 * Filenames an attacker sends, smallest first: each must be taken (its safe name) or refused,
 * never echoed raw.
 */
export const hostileFilenames: Readonly<Record<string, string>> = {
  'filename-traversal': '../../../etc/passwd',
  'filename-windows': '..\\..\\windows\\win.ini',
  'filename-nul': 'cat.png\u0000.exe',
  'filename-crlf': 'cat\r\nX-Injected: yes.png',
  'filename-rtl': 'cat\u202Egnp.exe',
  'filename-10kb': `${'a'.repeat(10_000)}.png`,
}

/** The valid uploads of a route: each field's files, in the order the route declares them. */
export function validUploads(fc: FC, fields: Fields): Arbitrary<UploadDraft[]> {
  const perField = Object.entries(fields).map(([name, field]) => {
    const kinds = fileKinds(field)
    if (kinds.length === 0) {
      if (field.min > 0)
        throw optionError(
          'SG_ERR_NO_VALUES',
          `shapeguard: fuzzRoutes(): files.${name}: the fuzzer makes no file of its types (${field.types!.join(', ')})`,
        )
      return fc.constant<UploadDraft[]>([])
    }
    const one = fileArbitrary(fc, name, field, kinds)
    const most = Math.min(field.max, MANY_FILES)
    const counts = fc.array(one, { minLength: field.min, maxLength: Math.max(field.min, most) })
    return field.max > most && field.max <= 20
      ? fc.oneof(
          { arbitrary: counts, weight: 9 },
          { arbitrary: fc.array(one, { minLength: field.max, maxLength: field.max }), weight: 1 },
        )
      : counts
  })
  return fc.tuple(...perField).map((lists) => lists.flat())
}

const without = (valid: readonly UploadDraft[], name: string) =>
  valid.filter((d) => d.field !== name)

const smallest = (name: string, kind: FileKind, size = kind.head.length): UploadDraft => ({
  field: name,
  filename: `file${size}`,
  type: kind.type,
  head: kind.head,
  size,
})

function fieldCases(name: string, field: FileField, notes: Set<string>): UploadCase[] {
  const cases: UploadCase[] = []
  const [kind] = fileKinds(field)
  const path = `files.${name}`
  if (kind !== undefined && field.maxBytes + 1 <= OVERSIZE_BYTES)
    cases.push({
      name: 'oversized-file',
      uploads: (v) => [...without(v, name), smallest(name, kind, field.maxBytes + 1)],
      expect: [413],
    })
  else if (kind !== undefined)
    notes.add(
      `${path}: no oversized upload (maxBytes + 1 is past the ${OVERSIZE_BYTES} bytes sent)`,
    )
  // At most maxBytes, so that the type is what the server refuses (past it, the 413 comes first).
  const wrongSize = Math.min(WRONG_TYPE_BYTES, field.maxBytes)
  if (
    field.types !== undefined &&
    !typeAllowed('application/x-msdownload', field.types) &&
    wrongSize >= EXECUTABLE.length
  )
    cases.push({
      name: 'wrong-type-file',
      uploads: (v) => [
        ...without(v, name),
        { field: name, filename: 'cat.png', type: 'image/png', head: EXECUTABLE, size: wrongSize },
      ],
      expect: [415],
    })
  if (kind !== undefined && field.max < 100)
    cases.push({
      name: 'too-many-files',
      uploads: (v) => [
        ...without(v, name),
        ...Array.from({ length: field.max + 1 }, () => smallest(name, kind)),
      ],
      field: path,
    })
  if (field.min > 0)
    cases.push({ name: 'missing-file', uploads: (v) => without(v, name), field: path })
  return cases
}

/**
 * The invalid and hostile uploads of a route: per field, one past `maxBytes` (413), an executable
 * named `cat.png` where types are declared (415), one file more than `max` and none where one is
 * required (422 naming the field); an undeclared file field (422, also `__proto__`); and hostile
 * filenames on a valid file. `notes` says what could not be sent.
 */
export function uploadCases(fc: FC, fields: Fields, notes: Set<string>): Arbitrary<UploadCase> {
  const cases: UploadCase[] = Object.entries(fields).flatMap(([name, field]) =>
    fieldCases(name, field, notes),
  )
  for (const undeclared of ['sg_fuzz_undeclared', '__proto__'])
    cases.push({
      name: 'undeclared-file',
      uploads: (v) => [
        ...v,
        { field: undeclared, filename: 'x.txt', type: 'text/plain', head: [], size: 1 },
      ],
      field: `files.${undeclared}`,
    })
  const target = Object.entries(fields).find(([, field]) => fileKinds(field).length > 0)
  if (target !== undefined) {
    const [name, field] = target
    for (const [what, raw] of Object.entries(hostileFilenames))
      cases.push({
        name: what,
        uploads: (v) => {
          const at = v.findIndex((d) => d.field === name)
          if (at !== -1) return v.map((d, i) => (i === at ? { ...d, filename: raw } : d))
          return [...v, { ...smallest(name, fileKinds(field)[0]!), filename: raw }]
        },
        echo: [raw],
      })
  }
  return fc.constantFrom(...cases)
}
