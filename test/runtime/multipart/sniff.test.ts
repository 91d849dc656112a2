import { describe, expect, it } from 'vitest'
import {
  SNIFF_BYTES,
  sniffType,
  typeAllowed,
  uploadType,
} from '../../../src/runtime/multipart/sniff.js'

// A real DOS/PE header: the first bytes of every Windows executable.
const pe = [0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, 0, 0, 0xb8, 0]

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))),
  )

describe('sniffType', () => {
  it.each([
    ['image/png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])],
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xe0])],
    ['image/gif', bytes('GIF89a')],
    ['image/webp', bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 ')],
    ['audio/wav', bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt ')],
    ['application/pdf', bytes('%PDF-1.7\n')],
    ['application/zip', bytes([0x50, 0x4b, 0x03, 0x04, 20, 0])],
    ['application/gzip', bytes([0x1f, 0x8b, 8, 0])],
    ['application/x-msdownload', bytes(pe)],
    ['image/bmp', bytes('BM', [0x36, 0, 0x0c, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 40, 0, 0, 0])],
    ['application/x-elf', bytes([0x7f, 0x45, 0x4c, 0x46, 2])],
    ['image/avif', bytes([0, 0, 0, 0x20], 'ftypavif')],
    ['image/heic', bytes([0, 0, 0, 0x18], 'ftypheic')],
    ['video/quicktime', bytes([0, 0, 0, 0x14], 'ftypqt  ')],
    ['video/mp4', bytes([0, 0, 0, 0x20], 'ftypisom')],
    ['audio/mpeg', bytes('ID3', [4, 0, 0, 0, 0, 0x02, 0x01])],
    ['audio/mpeg', bytes([0xff, 0xfb, 0x90, 0x64])],
  ])('knows %s by its signature', (type, head) => {
    expect(sniffType(head)).toBe(type)
  })

  it('finds no signature in text, in nothing, or in a RIFF of another form', () => {
    expect(sniffType(bytes('name,email\nAda,ada@example.com\n'))).toBeUndefined()
    expect(sniffType(bytes('{"a":1}'))).toBeUndefined()
    expect(sniffType(new Uint8Array(0))).toBeUndefined()
    expect(sniffType(bytes([0x89, 0x50, 0x4e]))).toBeUndefined()
    expect(sniffType(bytes('RIFF', [1, 2, 3, 4], 'XXXX'))).toBeUndefined()
    expect(sniffType(bytes([0xff, 0xe0]))).toBeUndefined()
  })

  it.each([
    ['a UTF-16LE BOM (FF FE, an MPEG frame without it)', bytes([0xff, 0xfe], 'n\0a\0m\0e\0')],
    ['a UTF-16BE BOM', bytes([0xfe, 0xff], '\0n\0a\0m\0e')],
    ['a UTF-8 BOM', bytes([0xef, 0xbb, 0xbf], 'name,qty\n')],
    ['a UTF-32LE BOM', bytes([0xff, 0xfe, 0, 0], 'n\0\0\0')],
    ['a CSV starting with BMW', bytes('BMW,320i,2019\nAudi,A4,2020\n')],
    ['text starting with MZ', bytes('MZ Holdings annual report\n')],
    ['a CSV starting with ID3', bytes('ID3,name\n1,foo\n')],
    ['an MPEG sync with a reserved bitrate', bytes([0xff, 0xfb, 0xf0, 0x64])],
    ['an MPEG sync with a reserved sample rate', bytes([0xff, 0xfb, 0x9c, 0x64])],
  ])('finds no signature in %s', (_, head) => {
    expect(sniffType(head)).toBeUndefined()
  })

  it('reads no more than SNIFF_BYTES', () => {
    expect(SNIFF_BYTES).toBeGreaterThanOrEqual(16)
  })
})

describe('uploadType', () => {
  it('takes the sniffed type over what the part declares (evil.exe sent as image/png)', () => {
    expect(uploadType(bytes(pe), 'image/png')).toBe('application/x-msdownload')
  })

  it('keeps text declared as text, whatever letters it starts with', () => {
    expect(uploadType(bytes([0xff, 0xfe], 'n\0a\0'), 'text/plain')).toBe('text/plain')
    expect(uploadType(bytes('BMW,320i,2019\n'), 'text/csv')).toBe('text/csv')
    expect(uploadType(bytes('MZ Holdings annual report\n'), 'text/plain')).toBe('text/plain')
    expect(uploadType(bytes('ID3,name\n1,foo\n'), 'text/csv')).toBe('text/csv')
  })

  it('refuses a declared type whose signature the content lacks', () => {
    expect(uploadType(bytes('hello'), 'image/png')).toBe('application/octet-stream')
    expect(uploadType(bytes('hello'), 'application/pdf')).toBe('application/octet-stream')
  })

  it('keeps a declared type without a signature, lower-cased and without parameters', () => {
    expect(uploadType(bytes('a,b\n'), 'Text/CSV; charset=utf-8')).toBe('text/csv')
    expect(uploadType(bytes('{}'), 'application/json')).toBe('application/json')
  })

  it('makes an absent, malformed or oversized declaration application/octet-stream', () => {
    for (const declared of [undefined, '', 'text', 'a/b/c', 'text/ csv', `text/${'x'.repeat(200)}`])
      expect(uploadType(bytes('x'), declared)).toBe('application/octet-stream')
  })
})

describe('typeAllowed', () => {
  it('accepts exact types, families and anything without types', () => {
    expect(typeAllowed('image/png', ['image/png'])).toBe(true)
    expect(typeAllowed('image/webp', ['image/*'])).toBe(true)
    expect(typeAllowed('application/pdf', ['image/*'])).toBe(false)
    expect(typeAllowed('application/octet-stream', ['image/png'])).toBe(false)
    expect(typeAllowed('anything/at-all', undefined)).toBe(true)
  })

  it('takes a family only for a type confirmed by the content signature', () => {
    // SVG (which may hold a script) and HTML declared image/x-foo have no signature.
    expect(typeAllowed('image/svg+xml', ['image/*'])).toBe(false)
    expect(typeAllowed('image/x-foo', ['image/*'])).toBe(false)
    expect(typeAllowed('text/csv', ['text/*'])).toBe(false)
    expect(typeAllowed('image/svg+xml', ['image/svg+xml'])).toBe(true)
    expect(typeAllowed('text/csv', ['text/csv', 'image/*'])).toBe(true)
    expect(typeAllowed('audio/mpeg', ['audio/*'])).toBe(true)
  })
})
