import { describe, expect, it } from 'vitest'
import { headerMeter } from '../../../src/runtime/multipart/header-meter.js'

const B = 'b0und'
const body = (header: string) =>
  Buffer.from(
    `--${B}\r\n${header}\r\n\r\ncontent\r\n--${B}\r\nContent-Disposition: form-data; name="b"\r\n\r\nv\r\n--${B}--\r\n`,
  )

// Whether the meter passes `buf` fed in pieces cut at `cuts`.
function passes(buf: Buffer, max: number, cuts: number[]): boolean {
  const meter = headerMeter(B, max)
  let from = 0
  for (const to of [...cuts, buf.length]) {
    if (!meter(buf.subarray(from, to))) return false
    from = to
  }
  return true
}

describe('headerMeter', () => {
  const small = body('Content-Disposition: form-data; name="a"')
  const large = body(`Content-Disposition: form-data; name="a"\r\nX-Junk: ${'j'.repeat(200)}`)

  it('passes headers within the bound and refuses one past it, however the body is cut', () => {
    for (let cut = 1; cut < large.length; cut++) {
      expect(passes(small, 100, [cut])).toBe(true)
      expect(passes(large, 100, [cut])).toBe(false)
      expect(passes(large, 400, [cut])).toBe(true)
    }
  })

  it('finds delimiters fed one byte at a time', () => {
    const bytes = Array.from({ length: large.length - 1 }, (_, i) => i + 1)
    expect(passes(small, 100, bytes)).toBe(true)
    expect(passes(large, 100, bytes)).toBe(false)
  })

  it('never counts file content, however large', () => {
    const content = Buffer.alloc(1_000_000, 'x')
    const buf = Buffer.concat([
      Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="f"; filename="f"\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${B}--\r\n`),
    ])
    expect(passes(buf, 100, [70, 5000, 700_000])).toBe(true)
  })

  it('counts no epilogue after the closing delimiter as a header, however the body is cut', () => {
    const epilogue = Buffer.concat([small, Buffer.alloc(20_000, 'E')])
    for (let cut = 1; cut < small.length + 10; cut++)
      expect(passes(epilogue, 100, [cut])).toBe(true)
    expect(
      passes(
        epilogue,
        100,
        Array.from({ length: small.length + 5 }, (_, i) => i + 1),
      ),
    ).toBe(true)
  })
})
