import { describe, expect, it } from 'vitest'
import {
  SNIFF_BYTES,
  sniffType,
  typeAllowed,
  uploadType,
} from '../../../src/runtime/multipart/sniff.js'

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
    ['application/x-msdownload', bytes('MZ', [0x90, 0])],
    ['application/x-elf', bytes([0x7f, 0x45, 0x4c, 0x46, 2])],
    ['image/avif', bytes([0, 0, 0, 0x20], 'ftypavif')],
    ['image/heic', bytes([0, 0, 0, 0x18], 'ftypheic')],
    ['video/quicktime', bytes([0, 0, 0, 0x14], 'ftypqt  ')],
    ['video/mp4', bytes([0, 0, 0, 0x20], 'ftypisom')],
    ['audio/mpeg', bytes('ID3', [4, 0])],
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

  it('reads no more than SNIFF_BYTES', () => {
    expect(SNIFF_BYTES).toBeGreaterThanOrEqual(16)
  })
})

describe('uploadType', () => {
  it('takes the sniffed type over what the part declares (evil.exe sent as image/png)', () => {
    expect(uploadType(bytes('MZ', [0x90, 0]), 'image/png')).toBe('application/x-msdownload')
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
})
