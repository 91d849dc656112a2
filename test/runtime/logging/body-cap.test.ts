import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { capBody } from '../../../src/runtime/logging/body-cap.js'
import { safeJson } from '../../../src/runtime/logging/printable.js'
import { createRedactor } from '../../../src/runtime/logging/redactor.js'

const MARKER = /…\[truncated\]$/
const redact = createRedactor(['dob'])

function cap(body: unknown, maxBytes: number) {
  return capBody(redact, body, ['req', 'body'], maxBytes)
}

// The units a cut must not split: an escape, a surrogate pair (one code point), a character.
function units(json: string): string[] {
  return json.match(/\\u[0-9a-f]{4}|\\.|./gsu) ?? []
}

function bytes(text: string): number {
  return Buffer.byteLength(text)
}

/** A body of `size` keys whose property reads are counted, as the walk makes them. */
function counted(size: number): { body: object; reads: () => number } {
  const target: Record<string, string> = {}
  for (let i = 0; i < size; i++) target[`key${i}`] = `value ${i}`
  let reads = 0
  const body = new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key === 'string' && key.startsWith('key')) reads++
      return Reflect.get(object, key, receiver)
    },
  })
  return { body, reads: () => reads }
}

describe('capBody', () => {
  it('keeps a body whose JSON fits, redacted, as it was written before the cap walked with it', () => {
    const body = { name: 'ada', tags: ['a', 'b'], password: 'pw', dob: '1990-01-01' }
    const capped = cap(body, 2048)
    const redacted = redact(body, ['req', 'body'])
    expect(capped.value).toEqual(redacted)
    expect(capped.json).toBe(JSON.stringify(redacted))
    expect(capped.json).toBe(
      '{"name":"ada","tags":["a","b"],"password":"[REDACTED]","dob":"[REDACTED]"}',
    )
  })

  it('counts UTF-8 bytes: a body of exactly the cap fits, and a character is never split', () => {
    // {"t":"…"} is 8 bytes of ASCII around the text; € is 3 bytes.
    const exact = { t: '€'.repeat(4) }
    expect(bytes(JSON.stringify(exact))).toBe(20)
    expect(cap(exact, 20).value).toEqual(exact)
    expect(cap(exact, 19).value).toBe('{"t":"€€€€"…[truncated]')
    const cut = cap(exact, 17)
    expect(cut.value).toBe('{"t":"€€€…[truncated]')
    expect(cut.json).toBe(cut.value)
  })

  it('cuts a 900 KB body to the cap', () => {
    const { value } = cap({ text: 'x'.repeat(900_000) }, 2048)
    const text = value as string
    expect(text.startsWith('{"text":"xxx')).toBe(true)
    expect(text).toMatch(MARKER)
    expect(bytes(text.replace(MARKER, ''))).toBe(2048)
  })

  it('writes only the marker with a cap of 0', () => {
    expect(cap({ a: 1 }, 0).value).toBe('…[truncated]')
  })

  it('escapes what safeJson escapes before measuring (U+2028 is one line, six bytes)', () => {
    expect(cap({ a: 'x\u2028y' }, 100).json).toBe(String.raw`{"a":"x\u2028y"}`)
    expect(cap({ a: 'x\u2028y' }, 10).value).toBe('{"a":"x…[truncated]')
  })

  it('never cuts inside an escape or a surrogate pair, and keeps as much as fits', () => {
    const body = {
      s: 'a"b\\c\nd\u0001e😀fé€\ud800g\u2029h',
      list: ['😀😀', '\u001b[2J', 7, null, true, undefined, () => 1],
      nested: { deep: [{ x: '😀'.repeat(3) }], pin: '1234', none: undefined },
      tail: 'é'.repeat(5),
    }
    const json = cap(body, 10_000).json
    const parts = units(json)
    expect(parts.join('')).toBe(json)
    const total = bytes(json)
    for (let max = 0; max < total; max++) {
      const text = cap(body, max).value as string
      expect(text).toMatch(MARKER)
      const kept = text.replace(MARKER, '')
      // A whole number of units, as many as fit: the same cut as of the whole JSON.
      let end = 0
      let size = 0
      while (end < parts.length && size + bytes(parts[end]!) <= max) size += bytes(parts[end++]!)
      expect(kept).toBe(parts.slice(0, end).join(''))
      // No lone surrogate: UTF-8 would turn it into U+FFFD.
      expect(Buffer.from(kept).toString()).toBe(kept)
    }
    expect(cap(body, total).json).toBe(json)
  })

  it('writes, for any body and cap, the whole redacted JSON or its cut, as if it were all written', () => {
    const key = fc.oneof(fc.constantFrom('password', 'dob', 'token', '__proto__'), fc.string())
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small' },
        fc.string({ unit: 'binary' }),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.constant(undefined),
        fc.array(tie('tree')),
        fc.dictionary(key, tie('tree')),
      ),
    }))
    fc.assert(
      fc.property(tree, fc.nat(400), (body, max) => {
        const whole = safeJson(JSON.stringify(redact(body, ['req', 'body'])) ?? 'undefined')
        const { json } = cap(body, max)
        if (bytes(whole) <= max) {
          expect(json).toBe(whole)
          return
        }
        const parts = units(whole)
        let end = 0
        let size = 0
        while (end < parts.length && size + bytes(parts[end]!) <= max) size += bytes(parts[end++]!)
        expect(json).toBe(`${parts.slice(0, end).join('')}…[truncated]`)
      }),
      { numRuns: 500 },
    )
  }, 30_000)

  it('reads a few hundred of 200,000 keys to cut at 2 KB, and all of a body that fits', () => {
    const big = counted(200_000)
    const { value } = cap(big.body, 2048)
    // `"keyN":"value N",` is at least 18 bytes: about 2048 / 18 members are enough.
    expect(big.reads()).toBeLessThan(200)
    expect(bytes((value as string).replace(MARKER, ''))).toBe(2048)
    const small = counted(50)
    cap(small.body, 2048)
    expect(small.reads()).toBe(50)
  })
})
