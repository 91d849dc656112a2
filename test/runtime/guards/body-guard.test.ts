import { describe, expect, it } from 'vitest'
import { isAppError } from '../../../src/runtime/core/app-error.js'
import { guardBody } from '../../../src/runtime/guards/body-guard.js'
import { type GuardLimits, resolveLimits } from '../../../src/runtime/guards/limits.js'
import { countedReads } from '../../support/counted-reads.js'

const defaults = resolveLimits()

/** The code and status `guardBody` throws with, or `ok`. */
function outcome(body: unknown, limits: GuardLimits = defaults): string {
  try {
    guardBody(body, limits)
    return 'ok'
  } catch (error) {
    if (!isAppError(error)) throw error
    return `${error.statusCode} ${error.code}`
  }
}

function thrown(body: unknown, limits: GuardLimits = defaults) {
  try {
    guardBody(body, limits)
  } catch (error) {
    return error as { code: string; message: string; details: unknown }
  }
  throw new Error('guardBody did not throw')
}

/** `levels` nested objects: `{a:{a:…{}}}`; the outermost is level 1. */
function nestedObjects(levels: number, leaf: unknown = 1): unknown {
  let v: unknown = leaf
  for (let i = 0; i < levels; i++) v = { a: v }
  return v
}

function nestedArrays(levels: number, leaf: unknown = 1): unknown {
  let v: unknown = leaf
  for (let i = 0; i < levels; i++) v = [v]
  return v
}

describe('guardBody: depth', () => {
  it('lets 20 levels pass and rejects 21 (objects)', () => {
    expect(outcome(nestedObjects(20))).toBe('ok')
    expect(outcome(nestedObjects(21))).toBe('400 BODY_TOO_DEEP')
  })

  it('counts arrays as levels too, and an empty container as a level', () => {
    expect(outcome(nestedArrays(20))).toBe('ok')
    expect(outcome(nestedArrays(21))).toBe('400 BODY_TOO_DEEP')
    expect(outcome(nestedObjects(19, []))).toBe('ok')
    expect(outcome(nestedObjects(20, []))).toBe('400 BODY_TOO_DEEP')
    expect(outcome(nestedArrays(20, {}))).toBe('400 BODY_TOO_DEEP')
  })

  it('adds no level for scalars', () => {
    expect(outcome(nestedObjects(20, 'deep string'))).toBe('ok')
    expect(outcome(nestedObjects(20, null))).toBe('ok')
    expect(outcome('a string body')).toBe('ok')
    expect(outcome(42)).toBe('ok')
    expect(outcome(undefined)).toBe('ok')
  })

  it('honours a custom maxDepth exactly', () => {
    const limits = resolveLimits({ maxDepth: 3 })
    expect(outcome({ a: [{ b: 1 }] }, limits)).toBe('ok')
    expect(outcome({ a: [{ b: [] }] }, limits)).toBe('400 BODY_TOO_DEEP')
    expect(outcome({}, resolveLimits({ maxDepth: 1 }))).toBe('ok')
    expect(outcome({ a: {} }, resolveLimits({ maxDepth: 1 }))).toBe('400 BODY_TOO_DEEP')
  })

  it('answers a 100,000-level body without a stack overflow, reading no deeper than maxDepth', () => {
    const nested = (levels: number) => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`)
    const body = nested(100_000)
    // Reads of the body, counted: it costs what a body a few levels past the limit costs.
    const reads = (value: unknown, limits?: GuardLimits) => {
      const counted = countedReads(value, 1_000_000)
      expect(outcome(counted.doc, limits)).toBe('400 BODY_TOO_DEEP')
      return counted.reads()
    }
    expect(reads(body)).toBe(reads(nested(25)))
    const limits = resolveLimits({ maxDepth: 1000 })
    expect(reads(body, limits)).toBe(reads(nested(1005), limits))
  })

  it('says how deep a body may be', () => {
    const error = thrown(nestedObjects(21))
    expect(error.message).toBe('Body is nested deeper than 20 levels')
    expect(error.details).toEqual({ maxDepth: 20 })
  })
})

describe('guardBody: array length', () => {
  it('lets 1000 items pass and rejects 1001', () => {
    expect(outcome({ items: new Array(1000).fill(0) })).toBe('ok')
    expect(outcome({ items: new Array(1001).fill(0) })).toBe('400 BODY_ARRAY_TOO_LARGE')
    expect(outcome(new Array(1001).fill('x'))).toBe('400 BODY_ARRAY_TOO_LARGE')
  })

  it('checks arrays at any depth', () => {
    expect(outcome(nestedObjects(10, new Array(1001).fill(0)))).toBe('400 BODY_ARRAY_TOO_LARGE')
  })

  it('says how long an array may be', () => {
    const error = thrown({ items: new Array(4).fill(0) }, resolveLimits({ maxArrayLength: 3 }))
    expect(error.message).toBe('Body contains an array longer than 3 items')
    expect(error.details).toEqual({ maxArrayLength: 3 })
  })
})

describe('guardBody: string length', () => {
  it('lets 10000 characters pass and rejects 10001, in values and in keys', () => {
    expect(outcome({ s: 'x'.repeat(10000) })).toBe('ok')
    expect(outcome({ s: 'x'.repeat(10001) })).toBe('400 STRING_TOO_LONG')
    expect(outcome({ ['k'.repeat(10000)]: 1 })).toBe('ok')
    expect(outcome({ ['k'.repeat(10001)]: 1 })).toBe('400 STRING_TOO_LONG')
    expect(outcome(['x'.repeat(10001)])).toBe('400 STRING_TOO_LONG')
    expect(outcome('x'.repeat(10001))).toBe('400 STRING_TOO_LONG')
  })

  it('counts characters, so 10000 emoji pass', () => {
    expect(outcome({ s: '😀'.repeat(10000) })).toBe('ok')
    expect(outcome({ s: '😀'.repeat(10001) })).toBe('400 STRING_TOO_LONG')
  })

  it('measures the string as received, before sanitising', () => {
    expect(outcome({ s: `${'x'.repeat(10000)}\u200B` })).toBe('400 STRING_TOO_LONG')
  })

  it('says how long a string may be', () => {
    const error = thrown({ s: 'x'.repeat(10001) })
    expect(error.message).toBe('Body contains a string longer than 10000 characters')
    expect(error.details).toEqual({ maxStringLength: 10000 })
  })
})

describe('guardBody: prototype pollution', () => {
  it('rejects a __proto__ key anywhere, as JSON.parse makes it', () => {
    expect(outcome(JSON.parse('{"__proto__":{"polluted":true}}'))).toBe('400 PROTO_POLLUTION')
    expect(outcome(JSON.parse('{"a":[{"b":{"__proto__":{}}}]}'))).toBe('400 PROTO_POLLUTION')
    expect(outcome(JSON.parse('[{"__proto__":null}]'))).toBe('400 PROTO_POLLUTION')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('rejects a key that becomes __proto__ once sanitised', () => {
    expect(outcome(JSON.parse('{"__pro\\u200bto__":{"polluted":true}}'))).toBe(
      '400 PROTO_POLLUTION',
    )
  })

  it('accepts keys that only resemble __proto__', () => {
    expect(outcome(JSON.parse('{"__proto":1,"proto":2,"__PROTO__":3,"_proto_":4}'))).toBe('ok')
  })

  it('removes constructor and prototype keys at any depth, keeping the order of the rest', () => {
    const body = JSON.parse(
      '{"a":1,"constructor":{"prototype":{"polluted":true}},"b":{"prototype":1,"c":[{"constructor":2,"d":3}]},"e":4}',
    )
    const cleaned = guardBody(body, defaults)
    expect(JSON.stringify(cleaned)).toBe('{"a":1,"b":{"c":[{"d":3}]},"e":4}')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.getPrototypeOf(cleaned)).toBe(Object.prototype)
  })

  it('removes keys that become constructor or prototype once sanitised', () => {
    const cleaned = guardBody(
      JSON.parse('{"con\\u200bstructor":1,"proto\\u202etype":2,"x":3}'),
      defaults,
    )
    expect(cleaned).toEqual({ x: 3 })
  })

  it('says what is wrong', () => {
    const error = thrown(JSON.parse('{"__proto__":{}}'))
    expect(error.message).toBe('Body must not contain a "__proto__" key')
  })
})

describe('guardBody: sanitising', () => {
  it('removes null bytes, zero-width characters and bidi controls from values and keys', () => {
    const body = JSON.parse(
      '{"na\\u200bme":"Ad\\u0000a\\u202e","tags":["a\\ufeff","\\u2066b\\u2069"],"n":{"x\\u2060":"\\u200c"}}',
    )
    expect(JSON.stringify(guardBody(body, defaults))).toBe(
      '{"name":"Ada","tags":["a","b"],"n":{"x":""}}',
    )
  })

  it('lets the later key win when two keys become one', () => {
    expect(guardBody(JSON.parse('{"a\\u200b":1,"a":2}'), defaults)).toEqual({ a: 2 })
    expect(guardBody(JSON.parse('{"a":1,"a\\u200b":2}'), defaults)).toEqual({ a: 2 })
  })

  it('returns a clean body itself, untouched', () => {
    const body = { name: 'Ada', tags: ['x'], address: { city: 'London' } }
    const copy = structuredClone(body)
    expect(guardBody(body, defaults)).toBe(body)
    expect(body).toEqual(copy)
  })

  it('keeps a null-prototype object null-prototype when it rebuilds it', () => {
    const body = Object.assign(Object.create(null), { 'a\u200b': '1' })
    const cleaned = guardBody(body, defaults) as object
    expect(Object.getPrototypeOf(cleaned)).toBeNull()
    expect({ ...cleaned }).toEqual({ a: '1' })
  })

  it('leaves values that are not plain objects alone', () => {
    const buffer = Buffer.from('\u200b')
    const date = new Date(0)
    const body = { buffer, date }
    expect(guardBody(body, defaults)).toEqual({ buffer, date })
    expect(guardBody(buffer, defaults)).toBe(buffer)
  })
})

describe('guardBody: keys seen before', () => {
  it('still holds a key found clean once to a smaller limit later', () => {
    expect(outcome({ abcdef: 1 })).toBe('ok')
    expect(outcome({ abcdef: 1 }, resolveLimits({ maxStringLength: 5 }))).toBe(
      '400 STRING_TOO_LONG',
    )
  })

  it('removes constructor and prototype keys every time', () => {
    for (let i = 0; i < 3; i++) {
      expect(guardBody({ constructor: 1, prototype: 2, a: 3 }, defaults)).toEqual({ a: 3 })
    }
  })
})

describe('guardBody: several broken rules', () => {
  const small = resolveLimits({ maxDepth: 3, maxArrayLength: 2, maxStringLength: 5 })

  it('answers by precedence PROTO_POLLUTION > BODY_TOO_DEEP > BODY_ARRAY_TOO_LARGE > STRING_TOO_LONG, wherever each occurs', () => {
    const long = 'x'.repeat(6)
    const deep = { a: { b: { c: {} } } }
    const wide = [1, 2, 3]
    const proto = JSON.parse('{"__proto__":1}')
    expect(outcome({ s: long, w: wide, d: deep, p: proto }, small)).toBe('400 PROTO_POLLUTION')
    expect(outcome({ p: proto, d: deep }, small)).toBe('400 PROTO_POLLUTION')
    expect(outcome({ s: long, w: wide, d: deep }, small)).toBe('400 BODY_TOO_DEEP')
    expect(outcome({ d: deep, w: wide, s: long }, small)).toBe('400 BODY_TOO_DEEP')
    expect(outcome({ s: long, w: wide }, small)).toBe('400 BODY_ARRAY_TOO_LARGE')
    expect(outcome({ w: wide, s: long }, small)).toBe('400 BODY_ARRAY_TOO_LARGE')
    expect(outcome({ s: long }, small)).toBe('400 STRING_TOO_LONG')
  })

  it('finds a __proto__ key inside a too-long array', () => {
    expect(outcome([1, 2, JSON.parse('{"__proto__":1}')], small)).toBe('400 PROTO_POLLUTION')
  })

  it('does not look past maxDepth, so a deeper __proto__ key gives BODY_TOO_DEEP', () => {
    expect(outcome({ a: { b: JSON.parse('{"__proto__":1}') } }, small)).toBe('400 PROTO_POLLUTION')
    expect(outcome({ a: { b: { c: JSON.parse('{"__proto__":1}') } } }, small)).toBe(
      '400 BODY_TOO_DEEP',
    )
  })
})
