import { describe, expect, it } from 'vitest'
import { bodyInput, normaliseStrings } from '../../../src/runtime/pipeline/request-input.js'

describe('bodyInput', () => {
  const req = (body: unknown, headers: Record<string, string> = {}) => ({ body, headers }) as never

  it('reads an empty object without a body on the wire as a missing body (Express 4)', () => {
    expect(bodyInput(req({}))).toBeUndefined()
    expect(bodyInput(req({}, { 'content-length': '0' }))).toBeUndefined()
    expect(bodyInput(req(undefined))).toBeUndefined()
  })

  it('keeps a body that was sent, even an empty one', () => {
    expect(bodyInput(req({}, { 'content-length': '2' }))).toEqual({})
    expect(bodyInput(req({}, { 'transfer-encoding': 'chunked' }))).toEqual({})
    expect(bodyInput(req({ a: 1 }))).toEqual({ a: 1 })
    expect(bodyInput(req([]))).toEqual([])
    expect(bodyInput(req('text'))).toBe('text')
  })
})

describe('normaliseStrings', () => {
  it('trims and lower-cases every string of a copy', () => {
    const input = { a: ' X ', b: [' Y', { c: 'Z ' }], n: 1 }
    expect(normaliseStrings(input, true, true)).toEqual({ a: 'x', b: ['y', { c: 'z' }], n: 1 })
    expect(input.a).toBe(' X ')
    expect(normaliseStrings(' A ', true, false)).toBe('A')
    expect(normaliseStrings(' A ', false, true)).toBe(' a ')
  })

  it('never reaches the prototype and leaves class instances alone', () => {
    const hostile = JSON.parse('{"__proto__":{"polluted":"yes"},"a":" b "}')
    const out = normaliseStrings(hostile, true, false) as Record<string, unknown>
    expect(out).toEqual({ a: 'b' })
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    const date = new Date(0)
    expect(normaliseStrings({ date }, true, true)).toEqual({ date })
  })
})
