import { parse } from 'node:querystring'
import { describe, expect, it } from 'vitest'
import { isAppError } from '../../../src/runtime/app-error.js'
import { guardQuery } from '../../../src/runtime/guards/query-guard.js'

const none: ReadonlySet<string> = new Set()

function outcome(query: unknown, arrayKeys: ReadonlySet<string> = none): string {
  try {
    guardQuery(query, arrayKeys)
    return 'ok'
  } catch (error) {
    if (!isAppError(error)) throw error
    return `${error.statusCode} ${error.code}`
  }
}

function thrown(query: unknown, arrayKeys: ReadonlySet<string> = none) {
  try {
    guardQuery(query, arrayKeys)
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
    expect(guardQuery(query, new Set(['tag']))).toEqual({ tag: ['a', 'b'], page: '1' })
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

  it('passes a query without repeated keys, as the same object', () => {
    const query = simple({ page: '1', q: 'shoes' })
    expect(guardQuery(query, none)).toBe(query)
    expect(outcome({})).toBe('ok')
  })

  it('leaves a value that is not an object alone', () => {
    expect(guardQuery(undefined, none)).toBeUndefined()
    expect(guardQuery('a=1', none)).toBe('a=1')
  })
})

describe('guardQuery: sanitising and pollution', () => {
  it('sanitises keys and string values, nested ones too', () => {
    const query = {
      'q\u200b': 'sh\u0000oes\u202e',
      tag: ['a\ufeff', 'b'],
      filter: { 'c\u2066ity': 'Lon\u200ddon' },
    }
    expect(guardQuery(query, new Set(['tag']))).toEqual({
      q: 'shoes',
      tag: ['a', 'b'],
      filter: { city: 'London' },
    })
  })

  it('keeps a null-prototype query null-prototype when it rebuilds it', () => {
    const cleaned = guardQuery(simple({ 'a\u200b': '1' }), none) as object
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
    expect(guardQuery({ constructor: 'x', a: { prototype: '1', b: '2' } }, none)).toEqual({
      a: { b: '2' },
    })
  })
})

describe('guardQuery: limits on nested values (the defaults)', () => {
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
