import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { flatFields } from '../../../src/runtime/logging/flat-record.js'

const UNSURE = /[\u007f-\u009f\u2028\u2029\ud800-\udfff]/
const KEYS = ['requestId', 'method', 'endpoint', 'status', 'duration_ms', 'slow', 'ip', 'message']

// Strings of every kind of code unit (quotes, backslashes, controls, C1, separators, lone and
// paired surrogates), numbers of every kind (NaN, infinities, -0, huge, tiny), booleans, undefined.
const value = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\u0001', 'a', '\u007f', '\u2028', 'é') }),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(undefined),
)
const record = fc.dictionary(fc.constantFrom(...KEYS), value)

function asJson(fields: string): string {
  return `{${fields.slice(1)}}`
}

describe('flatFields', () => {
  it('writes what JSON.stringify writes, or steps aside for DEL, C1, U+2028/U+2029 and surrogates', () => {
    fc.assert(
      fc.property(record, (r) => {
        const fields = flatFields(r, undefined)
        const unsure = Object.values(r).some((v) => typeof v === 'string' && UNSURE.test(v))
        expect(fields === undefined).toBe(unsure)
        if (fields !== undefined) expect(asJson(fields)).toBe(JSON.stringify(r))
      }),
      { numRuns: 2000 },
    )
  })

  it('puts the message last, after a `message` field of the record if there is one', () => {
    fc.assert(
      fc.property(record, fc.string({ unit: 'binary' }), (r, message) => {
        const fields = flatFields(r, message)
        const alone = flatFields(r, undefined)
        if (alone === undefined || UNSURE.test(message)) expect(fields).toBeUndefined()
        else expect(fields).toBe(`${alone},"message":${JSON.stringify(message)}`)
      }),
    )
  })

  it('writes numbers as JSON.stringify does, hundredths (durations) included', () => {
    const hundredths = fc.integer().map((n) => n / 100)
    const numbers = fc.oneof(hundredths, fc.double(), fc.integer(), fc.constantFrom(0.1, 1e21, -0))
    fc.assert(
      fc.property(numbers, (n) => {
        expect(flatFields({ n }, undefined)).toBe(`,"n":${JSON.stringify(n)}`)
      }),
      { numRuns: 5000 },
    )
    for (let n = 0; n < 200_000; n++) {
      const v = n / 100
      if (flatFields({ v }, undefined) !== `,"v":${JSON.stringify(v)}`) expect(v).toBe('written')
    }
  })

  it('writes an empty record as nothing', () => {
    expect(flatFields({}, undefined)).toBe('')
    expect(flatFields({ a: undefined }, 'hi')).toBe(',"message":"hi"')
  })

  it('steps aside for objects, arrays, bigints, symbols, functions and null', () => {
    for (const v of [{}, [], 1n, Symbol('s'), () => 1, null]) {
      expect(flatFields({ a: 1, b: v }, undefined)).toBeUndefined()
    }
  })

  it('steps aside for a message holding an unsure character', () => {
    expect(flatFields({}, 'a\u2028b')).toBeUndefined()
    expect(flatFields({}, 'a\ud800')).toBeUndefined()
  })
})
