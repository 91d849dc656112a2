// A file's media type from its first bytes, where its format starts with a signature: the type a
// route checks, so that `evil.exe` renamed `cat.png` (and sent as image/png) is refused.

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
  ['image/bmp', 0, ascii('BM')],
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
  ['application/x-msdownload', 0, ascii('MZ')],
  ['application/x-elf', 0, [0x7f, 0x45, 0x4c, 0x46]],
  ['application/x-mach-binary', 0, [0xcf, 0xfa, 0xed, 0xfe]],
  ['application/x-mach-binary', 0, [0xfe, 0xed, 0xfa, 0xcf]],
  ['application/java-vm', 0, [0xca, 0xfe, 0xba, 0xbe]],
  ['audio/mpeg', 0, ascii('ID3')],
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

/**
 * The media type a file's first bytes (up to `SNIFF_BYTES`) announce, or undefined when they
 * start with no signature this table knows (text formats such as CSV or JSON have none).
 * @example sniffType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) // 'image/png'
 */
export function sniffType(head: Uint8Array): string | undefined {
  if (head.length >= 12 && text(head, 0, 4) === 'RIFF') return riff[text(head, 8, 12)]
  if (head.length >= 12 && text(head, 4, 8) === 'ftyp') {
    const brand = text(head, 8, 12).trimEnd()
    return brands[brand] ?? 'video/mp4'
  }
  for (const [type, offset, bytes] of signatures) if (at(head, offset, bytes)) return type
  // An MPEG audio frame: 11 set sync bits, then a version and layer that are not reserved.
  if (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0) {
    const version = (head[1]! >> 3) & 3
    const layer = (head[1]! >> 1) & 3
    if (version !== 1 && layer !== 0) return 'audio/mpeg'
  }
  return undefined
}

// A media type as RFC 6838 bounds its names (127 characters each side).
const mediaType = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/

// Every type some signature above announces: a part declared as one of these must carry it.
const signed: ReadonlySet<string> = new Set([
  ...signatures.map(([type]) => type),
  ...Object.values(riff),
  ...Object.values(brands),
  'video/mp4',
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
  const type = (declared?.split(';', 1)[0] ?? '').trim().toLowerCase()
  return mediaType.test(type) && !signed.has(type) ? type : 'application/octet-stream'
}

/**
 * Whether `type` is one of a field's accepted `types` (exact, or a family such as `image/*`);
 * every type is when the field names none.
 */
export function typeAllowed(type: string, types: readonly string[] | undefined): boolean {
  if (types === undefined) return true
  const family = `${type.slice(0, type.indexOf('/'))}/*`
  return types.includes(type) || types.includes(family)
}
