// A file's media type from its first bytes, where its format starts with a signature: the type a
// route checks, so that `evil.exe` renamed `cat.png` (and sent as image/png) is refused.

import { mediaType } from '../../shared/media-type.js'

/** How many of a file's first bytes `sniffType` reads. */
export const SNIFF_BYTES = 32

type Signature = readonly [type: string, offset: number, bytes: readonly number[]]

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0))

// Longer or more specific signatures first where two share a prefix (RIFF, ftyp).
const signatures: readonly Signature[] = [
  ['image/png', 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', 0, [0xff, 0xd8, 0xff]],
  ['image/gif', 0, ascii('GIF87a')],
  ['image/gif', 0, ascii('GIF89a')],
  ['image/tiff', 0, [0x49, 0x49, 0x2a, 0x00]],
  ['image/tiff', 0, [0x4d, 0x4d, 0x00, 0x2a]],
  ['image/x-icon', 0, [0x00, 0x00, 0x01, 0x00]],
  ['application/pdf', 0, ascii('%PDF-')],
  ['application/zip', 0, [0x50, 0x4b, 0x03, 0x04]],
  ['application/zip', 0, [0x50, 0x4b, 0x05, 0x06]],
  ['application/gzip', 0, [0x1f, 0x8b]],
  ['application/x-7z-compressed', 0, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
  ['application/vnd.rar', 0, ascii('Rar!\x1a\x07')],
  ['application/x-bzip2', 0, ascii('BZh')],
  ['application/x-xz', 0, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ['application/zstd', 0, [0x28, 0xb5, 0x2f, 0xfd]],
  ['application/wasm', 0, [0x00, 0x61, 0x73, 0x6d]],
  ['application/vnd.sqlite3', 0, ascii('SQLite format 3\0')],
  ['application/x-elf', 0, [0x7f, 0x45, 0x4c, 0x46]],
  ['application/x-mach-binary', 0, [0xcf, 0xfa, 0xed, 0xfe]],
  ['application/x-mach-binary', 0, [0xfe, 0xed, 0xfa, 0xcf]],
  ['application/java-vm', 0, [0xca, 0xfe, 0xba, 0xbe]],
  ['audio/flac', 0, ascii('fLaC')],
  ['audio/ogg', 0, ascii('OggS')],
  ['audio/midi', 0, ascii('MThd')],
  ['video/webm', 0, [0x1a, 0x45, 0xdf, 0xa3]],
  ['font/woff', 0, ascii('wOFF')],
  ['font/woff2', 0, ascii('wOF2')],
]

// RIFF containers: the form type at offset 8.
const riff: Readonly<Record<string, string>> = {
  WEBP: 'image/webp',
  WAVE: 'audio/wav',
  'AVI ': 'video/x-msvideo',
}

// ISO base media files (`....ftyp<brand>`): the major brand at offset 8.
const brands: Readonly<Record<string, string>> = {
  avif: 'image/avif',
  avis: 'image/avif',
  heic: 'image/heic',
  heix: 'image/heic',
  mif1: 'image/heif',
  msf1: 'image/heif',
  qt: 'video/quicktime',
  M4A: 'audio/mp4',
  M4V: 'video/mp4',
  '3gp4': 'video/3gpp',
  '3gp5': 'video/3gpp',
  '3g2a': 'video/3gpp2',
}

const at = (head: Uint8Array, offset: number, bytes: readonly number[]): boolean => {
  if (head.length < offset + bytes.length) return false
  for (let i = 0; i < bytes.length; i++) if (head[offset + i] !== bytes[i]) return false
  return true
}

const text = (head: Uint8Array, from: number, to: number): string =>
  String.fromCharCode(...head.subarray(from, to))

const u16 = (head: Uint8Array, at: number): number => head[at]! | (head[at + 1]! << 8)

// A text file's byte-order mark (UTF-8, UTF-16 and UTF-32 either way): FF FE would read as an
// MPEG frame. A BOM is text, which has no signature.
const bom = (head: Uint8Array): boolean =>
  at(head, 0, [0xef, 0xbb, 0xbf]) ||
  at(head, 0, [0xfe, 0xff]) ||
  at(head, 0, [0xff, 0xfe]) ||
  at(head, 0, [0x00, 0x00, 0xfe, 0xff])

// Signatures of two or three letters that text may start with ("BMW,320i", "MZ Holdings",
// "ID3,name"): each also needs the header fields after it to be what the format writes.
function shortSignature(head: Uint8Array): string | undefined {
  // BMP: the four reserved bytes zero, and a DIB header size of a known version.
  if (head.length >= 18 && head[0] === 0x42 && head[1] === 0x4d) {
    const dib = u16(head, 14) + u16(head, 16) * 0x10000
    const reserved = head[6]! | head[7]! | head[8]! | head[9]!
    if (reserved === 0 && [12, 40, 52, 56, 64, 108, 124].includes(dib)) return 'image/bmp'
  }
  // DOS/PE executable: bytes on the last page under 512, at least one page and a header of at
  // least two paragraphs; text never has the byte 0 or 1 at offset 3.
  if (head.length >= 10 && head[0] === 0x4d && head[1] === 0x5a) {
    if (u16(head, 2) < 512 && u16(head, 4) > 0 && u16(head, 8) >= 2)
      return 'application/x-msdownload'
  }
  // ID3v2 tag: version 2 to 4, a revision, flags with the low nibble clear, a size of 7-bit bytes.
  if (head.length >= 10 && text(head, 0, 3) === 'ID3') {
    const size = head[6]! | head[7]! | head[8]! | head[9]!
    if (
      head[3]! >= 2 &&
      head[3]! <= 4 &&
      head[4] !== 0xff &&
      (head[5]! & 0x0f) === 0 &&
      size < 0x80
    )
      return 'audio/mpeg'
  }
  // An MPEG audio frame: 11 set sync bits, a version and a layer that are not reserved, and a
  // bitrate and a sample rate that are not (1111 and 11 are).
  if (head.length >= 3 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0) {
    const version = (head[1]! >> 3) & 3
    const layer = (head[1]! >> 1) & 3
    const bitrate = head[2]! >> 4
    const rate = (head[2]! >> 2) & 3
    if (version !== 1 && layer !== 0 && bitrate !== 15 && rate !== 3) return 'audio/mpeg'
  }
  return undefined
}

/**
 * The media type a file's first bytes (up to `SNIFF_BYTES`) announce, or undefined when they
 * start with no signature this table knows (text formats such as CSV or JSON have none).
 * @example sniffType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) // 'image/png'
 */
export function sniffType(head: Uint8Array): string | undefined {
  if (bom(head)) return undefined
  if (head.length >= 12 && text(head, 0, 4) === 'RIFF') return riff[text(head, 8, 12)]
  if (head.length >= 12 && text(head, 4, 8) === 'ftyp') {
    const brand = text(head, 8, 12).trimEnd()
    return brands[brand] ?? 'video/mp4'
  }
  for (const [type, offset, bytes] of signatures) if (at(head, offset, bytes)) return type
  return shortSignature(head)
}

// Every type some signature above announces: a part declared as one of these must carry it.
const signed: ReadonlySet<string> = new Set([
  ...signatures.map(([type]) => type),
  ...Object.values(riff),
  ...Object.values(brands),
  'video/mp4',
  'image/bmp',
  'application/x-msdownload',
  'audio/mpeg',
])

/**
 * The type a route checks an upload by: the sniffed type where the content has a signature; the
 * part's declared type (lower-cased, without parameters) where it has none, unless the declared
 * type is one whose files always start with a signature, which this content lacks, when it is
 * `application/octet-stream`. An absent or malformed declaration is `application/octet-stream`.
 * @example uploadType(Buffer.from('MZ…'), 'image/png') // 'application/x-msdownload'
 */
export function uploadType(head: Uint8Array, declared: string | undefined): string {
  const sniffed = sniffType(head)
  if (sniffed !== undefined) return sniffed
  const type = (declared ?? '').split(';', 1)[0]!.trim().toLowerCase()
  return mediaType.test(type) && !signed.has(type) ? type : 'application/octet-stream'
}

/**
 * Whether `type` (from `uploadType`) is one of a field's accepted `types`: listed exactly, or in
 * a listed family (`image/*`) when the content's signature confirmed it. A type without a
 * signature (image/svg+xml, text/html declared image/x-foo) is only the client's word, accepted
 * only when listed exactly. Every type is when the field names none.
 */
export function typeAllowed(type: string, types: readonly string[] | undefined): boolean {
  if (types === undefined || types.includes(type)) return true
  return signed.has(type) && types.includes(`${type.slice(0, type.indexOf('/'))}/*`)
}
