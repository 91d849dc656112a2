import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_NAME, safeFilename } from '../../../src/runtime/multipart/filename.js'

describe('safeFilename', () => {
  it.each([
    ['cat.png', 'cat.png'],
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\windows\\system32\\cmd.exe', 'cmd.exe'],
    ['C:\\Users\\ada\\report.pdf', 'report.pdf'],
    ['a\0b.txt', 'ab.txt'],
    ['evil\r\nSet-Cookie: x.txt', 'evilSet-Cookie x.txt'],
    ['invoice\u202Egnp.exe', 'invoicegnp.exe'],
    ['zero\u200Bwidth.txt', 'zerowidth.txt'],
    ['what?<is>"this"|*.txt', 'whatisthis.txt'],
    ['..', ''],
    ['.', ''],
    ['dir/', ''],
    ['  spaced.txt  ', 'spaced.txt'],
    ['caf\u0065\u0301.txt', 'caf\u00e9.txt'],
  ])('%j becomes %j', (raw, name) => {
    expect(safeFilename(raw)).toBe(name)
  })

  it('is empty for an absent name', () => {
    expect(safeFilename(undefined)).toBe('')
  })

  it('cuts a 10 KB name to MAX_NAME, keeping its extension', () => {
    const name = safeFilename(`${'a'.repeat(10_000)}.png`)
    expect(name).toHaveLength(MAX_NAME)
    expect(name.endsWith('.png')).toBe(true)
  })

  it('never leaves a separator, a control or a lone surrogate, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (raw) => {
        const name = safeFilename(raw)
        expect(name.length).toBeLessThanOrEqual(MAX_NAME)
        // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what it checks
        expect(name).not.toMatch(/[/\\\0-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/)
        expect(name).not.toMatch(
          /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/,
        )
        expect(['.', '..']).not.toContain(name)
      }),
    )
  })
})
