import type { Arbitrary } from 'fast-check'
import { SNIFF_BYTES, typeAllowed, uploadType } from '../../runtime/multipart/sniff.js'
import type { FileField } from '../../shared/file-field.js'
import type { FC } from '../load-fast-check.js'

// Uploads are made of a format's first bytes (what the server sniffs) and a filler: enough for
// the type check, cheap to build, send and print (the curl line writes the filler as one run).

/** One file to upload: its part's field, filename and declared type, its first bytes and size. */
export interface UploadDraft {
  readonly field: string
  readonly filename: string
  readonly type: string
  readonly head: readonly number[]
  readonly size: number
}

/** The byte every file is filled with after its first bytes: no format starts with it. */
export const FILLER = 0x2e

/** The largest valid file sent, in bytes; a larger `maxBytes` is reached only by its 413 case. */
export const VALID_BYTES = 64 * 1024
/** A field's `maxBytes` up to this is also sent exactly, the largest file it accepts. */
export const EXACT_BYTES = 1024 * 1024
/** The most files of a `file.many()` field in a valid request, besides its `max` when small. */
export const MANY_FILES = 3

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0))

// The first bytes of a file of each type, as its format starts.
const heads: Readonly<Record<string, readonly number[]>> = {
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff, 0xe0],
  'image/gif': ascii('GIF89a'),
  'image/webp': [...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WEBP')],
  'image/avif': [0, 0, 0, 0x1c, ...ascii('ftypavif')],
  // BMP: reserved bytes zero, pixels at 54, a 40-byte DIB header (BITMAPINFOHEADER).
  'image/bmp': [0x42, 0x4d, 0, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0],
  'image/tiff': [0x49, 0x49, 0x2a, 0x00],
  'application/pdf': ascii('%PDF-1.7\n'),
  'application/zip': [0x50, 0x4b, 0x03, 0x04],
  'application/gzip': [0x1f, 0x8b],
  // An ID3v2.4 tag of size 0, no flags.
  'audio/mpeg': [...ascii('ID3'), 4, 0, 0, 0, 0, 0, 0],
  'audio/ogg': ascii('OggS'),
  'audio/wav': [...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WAVE')],
  'video/mp4': [0, 0, 0, 0x18, ...ascii('ftypisom')],
  'video/webm': [0x1a, 0x45, 0xdf, 0xa3],
  'font/woff2': ascii('wOF2'),
}

/** An executable's first bytes: the upload named `cat.png` and declared `image/png` that must get 415. */
export const EXECUTABLE: readonly number[] = [...ascii('MZ'), 0x90, 0x00]

/** How to make a file the server takes as `type`. */
export interface FileKind {
  readonly type: string
  readonly head: readonly number[]
}

const bytes = (head: readonly number[], size: number) => {
  const out = Buffer.alloc(size, FILLER)
  out.set(head.slice(0, size))
  return out
}

/** The type the server finds for a file of this kind, at its smallest and once it is sniffed whole. */
const serverTypes = (kind: FileKind) => [
  uploadType(bytes(kind.head, kind.head.length), kind.type),
  uploadType(bytes(kind.head, SNIFF_BYTES), kind.type),
]

// The candidates for one accepted type: exact, a family's known members (a family accepts only
// types a signature confirms), or a few when any type goes.
function candidates(type: string | undefined): FileKind[] {
  if (type === undefined)
    return ['image/png', 'application/pdf', 'text/plain'].map((t) => ({
      type: t,
      head: heads[t] ?? [],
    }))
  if (!type.endsWith('/*')) return [{ type, head: heads[type] ?? [] }]
  const family = type.slice(0, -1)
  const known = Object.keys(heads).filter((t) => t.startsWith(family))
  return known.slice(0, 2).map((t) => ({ type: t, head: heads[t]! }))
}

/**
 * The kinds of file a field accepts that the fuzzer can make, checked by the server's own type
 * check; empty when it knows no signature of its types (then the field gets no valid file).
 */
export function fileKinds(field: FileField): FileKind[] {
  const wanted = field.types ?? [undefined]
  return wanted
    .flatMap(candidates)
    .filter(
      (kind) =>
        kind.head.length <= field.maxBytes &&
        serverTypes(kind).every((t) => typeAllowed(t, field.types)),
    )
}

const extension = (type: string) =>
  `.${type
    .slice(type.indexOf('/') + 1)
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 8)}`

/** A filename a browser sends as is and the server keeps as is: letters, digits, `_`, `-` and inner spaces. */
function filenames(fc: FC, type: string): Arbitrary<string> {
  const char = fc.constantFrom(...'abcxyzABC019_- ')
  return fc
    .string({ unit: char, minLength: 1, maxLength: 24 })
    .map((stem) => `${stem.trim() || 'a'}${extension(type)}`)
}

/** Valid files for a field: an accepted kind, a size from its first bytes up to `VALID_BYTES` (and `maxBytes` itself when at most `EXACT_BYTES`). */
export function fileArbitrary(
  fc: FC,
  name: string,
  field: FileField,
  kinds: readonly FileKind[],
): Arbitrary<UploadDraft> {
  return fc.constantFrom(...kinds).chain((kind) => {
    const least = kind.head.length
    const most = Math.min(field.maxBytes, VALID_BYTES)
    const sizes =
      field.maxBytes <= EXACT_BYTES && field.maxBytes > most
        ? fc.oneof(
            { arbitrary: fc.integer({ min: least, max: most }), weight: 9 },
            { arbitrary: fc.constant(field.maxBytes), weight: 1 },
          )
        : fc.integer({ min: least, max: Math.max(least, most) })
    return fc
      .record({ size: sizes, filename: filenames(fc, kind.type) })
      .map(({ size, filename }) => ({
        field: name,
        filename,
        type: kind.type,
        head: kind.head,
        size,
      }))
  })
}

/** The drafts' contents: the first bytes and the filler, `size` bytes. */
export const draftBytes = (draft: UploadDraft): Buffer => bytes(draft.head, draft.size)
