import { parse } from 'node:querystring'
import { describe, expect, it } from 'vitest'
import { isAppError } from '../../../src/runtime/core/app-error.js'
import { type GuardLimits, resolveLimits } from '../../../src/runtime/guards/limits.js'
import { guardQuery } from '../../../src/runtime/guards/query-guard.js'

const none: ReadonlySet<string> = new Set()
const defaults = resolveLimits()

function outcome(
  query: unknown,
  arrayKeys: ReadonlySet<string> = none,
  limits: GuardLimits = defaults,
): string {
  try {
    guardQuery(query, arrayKeys, limits)
    return 'ok'
  } catch (error) {
    if (!isAppError(error)) throw error
    return `${error.statusCode} ${error.code}`
  }
}

function thrown(
  query: unknown,
  arrayKeys: ReadonlySet<string> = none,
  limits: GuardLimits = defaults,
) {
  try {
    guardQuery(query, arrayKeys, limits)
  } catch (error) {
    return error as { code: string; message: string; details: unknown }
  }
  throw new Error('guardQuery did not throw')
}

/** What node's querystring (Express 5's default query parser) makes: a null-prototype object. */
function simple(entries: Record<string, string | string[]>): Record<string, unknown> {
  return Object.assign(Object.create(null), entries)
}

describe('guardQuery: repeated keys', () => {
  it('rejects the first array value the schema does not declare', () => {
    const error = thrown({ page: '1', tag: ['a', 'b'], sort: ['x', 'y'] })
    expect(error.code).toBe('PARAM_POLLUTION')
    expect(error.message).toBe('Query parameter "tag" must not be repeated')
    expect(error.details).toEqual({ param: 'tag' })
  })

  it('lets declared array keys through', () => {
    const query = { tag: ['a', 'b'], page: '1' }
    expect(guardQuery(query, new Set(['tag']), defaults)).toEqual({ tag: ['a', 'b'], page: '1' })
    expect(thrown({ tag: ['a'], sort: ['x', 'y'] }, new Set(['tag'])).details).toEqual({
      param: 'sort',
    })
  })

  it('treats two keys that become one once sanitised as a repeated key', () => {
    expect(thrown(simple({ 'ta\u200bg': '1', tag: '2' })).details).toEqual({ param: 'tag' })
    expect(thrown(simple({ tag: '2', 'ta\u200bg': '1' }), new Set(['tag'])).details).toEqual({
      param: 'tag',
    })
  })

  it('quotes the key in the message, control characters escaped; details keep it as sent', () => {
    const key = 'x\n2025 [INFO] << 200\u001b[2J\u009b1m\u2028'
    const error = thrown({ [key]: ['1', '2'] })
    expect(error.message).toBe(
      'Query parameter "x\\n2025 [INFO] << 200\\u001b[2J\\u009b1m\\u2028" must not be repeated',
    )
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/)
    expect(error.details).toEqual({ param: key })
    expect(thrown({ 'say "hi"': ['1', '2'] }).message).toBe(
      'Query parameter "say \\"hi\\"" must not be repeated',
    )
  })

  it('passes a query without repeated keys, as the same object', () => {
    const query = simple({ page: '1', q: 'shoes' })
    expect(guardQuery(query, none, defaults)).toBe(query)
    expect(outcome({})).toBe('ok')
  })

  it('leaves a value that is not an object alone', () => {
    expect(guardQuery(undefined, none, defaults)).toBeUndefined()
    expect(guardQuery('a=1', none, defaults)).toBe('a=1')
  })
})

describe('guardQuery: sanitising and pollution', () => {
  it('sanitises keys and string values, nested ones too', () => {
    const query = {
      'q\u200b': 'sh\u0000oes\u202e',
      tag: ['a\ufeff', 'b'],
      filter: { 'c\u2066ity': 'Lon\u200ddon' },
    }
    expect(guardQuery(query, new Set(['tag']), defaults)).toEqual({
      q: 'shoes',
      tag: ['a', 'b'],
      filter: { city: 'London' },
    })
  })

  it('keeps a null-prototype query null-prototype when it rebuilds it', () => {
    const cleaned = guardQuery(simple({ 'a\u200b': '1' }), none, defaults) as object
    expect(Object.getPrototypeOf(cleaned)).toBeNull()
    expect({ ...cleaned }).toEqual({ a: '1' })
  })

  it('rejects __proto__ keys at the top and nested, ahead of a repeated key', () => {
    const top = parse('__proto__=x&a=1')
    expect(Object.keys(top)).toEqual(['__proto__', 'a'])
    expect(outcome(top)).toBe('400 PROTO_POLLUTION')
    const nested = { tag: ['a', 'b'], f: JSON.parse('{"__proto__":{"polluted":"1"}}') }
    expect(outcome(nested)).toBe('400 PROTO_POLLUTION')
    expect(thrown(nested).message).toBe('Query must not contain a "__proto__" key')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('removes constructor and prototype keys', () => {
    expect(guardQuery({ constructor: 'x', a: { prototype: '1', b: '2' } }, none, defaults)).toEqual(
      {
        a: { b: '2' },
      },
    )
  })
})

describe('guardQuery: limits (the defaults unless given others)', () => {
  it('puts the query at level 1: 20 levels pass, 21 fail', () => {
    let twenty: unknown = '1'
    for (let i = 0; i < 19; i++) twenty = { a: twenty }
    expect(outcome({ a: twenty })).toBe('ok')
    expect(outcome({ a: { a: twenty } })).toBe('400 BODY_TOO_DEEP')
    expect(thrown({ a: { a: twenty } }).message).toBe('Query is nested deeper than 20 levels')
  })

  it('holds declared arrays to 1000 items and strings to 10000 characters', () => {
    const tags = new Set(['tag'])
    expect(outcome({ tag: new Array(1000).fill('x') }, tags)).toBe('ok')
    expect(outcome({ tag: new Array(1001).fill('x') }, tags)).toBe('400 BODY_ARRAY_TOO_LARGE')
    expect(outcome({ q: 'x'.repeat(10000) })).toBe('ok')
    expect(outcome({ q: 'x'.repeat(10001) })).toBe('400 STRING_TOO_LONG')
    expect(outcome({ ['k'.repeat(10001)]: '1' })).toBe('400 STRING_TOO_LONG')
  })

  it('uses the limits it is given, not the defaults', () => {
    const small = resolveLimits({ maxStringLength: 5 }, { maxDepth: 2, maxArrayLength: 2 })
    const tags = new Set(['tag'])
    expect(outcome({ q: '12345', tag: ['a', 'b'], f: { a: '1' } }, tags, small)).toBe('ok')
    expect(outcome({ q: '1234567890' }, none, small)).toBe('400 STRING_TOO_LONG')
    expect(thrown({ q: '1234567890' }, none, small)).toMatchObject({
      message: 'Query contains a string longer than 5 characters',
      details: { maxStringLength: 5 },
    })
    expect(outcome({ abcdef: '1' }, none, small)).toBe('400 STRING_TOO_LONG')
    expect(outcome({ tag: ['a', 'b', 'c'] }, tags, small)).toBe('400 BODY_ARRAY_TOO_LARGE')
    expect(outcome({ f: { a: { b: '1' } } }, none, small)).toBe('400 BODY_TOO_DEEP')
    const large = resolveLimits(undefined, { maxStringLength: 20000 })
    expect(outcome({ q: 'x'.repeat(12000) }, none, large)).toBe('ok')
  })

  it('answers by precedence PROTO_POLLUTION > PARAM_POLLUTION > limits', () => {
    const long = 'x'.repeat(10001)
    expect(outcome({ q: long, tag: ['a', 'b'] })).toBe('400 PARAM_POLLUTION')
    expect(outcome({ q: long, tag: ['a', 'b'], p: JSON.parse('{"__proto__":"1"}') })).toBe(
      '400 PROTO_POLLUTION',
    )
    expect(outcome({ q: long, tag: new Array(1001).fill('x') }, new Set(['tag']))).toBe(
      '400 BODY_ARRAY_TOO_LARGE',
    )
  })
})
