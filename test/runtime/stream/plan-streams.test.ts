import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { handle } from '../../../src/index.js'
import { planRoute } from '../../../src/runtime/pipeline/plan.js'
import { dataLines, idLine, lastEventIdOf, ndjsonLine } from '../../../src/runtime/stream/frame.js'

const Token = z.object({ text: z.string() })
const ok = () => undefined

describe('a streaming route at definition', () => {
  it('compiles events and stream into starters and a step', () => {
    const sse = planRoute({ events: { token: Token } } as never)
    expect(sse.streams?.sse).toBeTypeOf('function')
    expect(sse.streams?.ndjson).toBeUndefined()
    const lines = planRoute({ stream: Token } as never)
    expect(lines.streams?.ndjson).toBeTypeOf('function')
    expect(planRoute({ response: Token } as never).streams).toBeUndefined()
    // A route may answer JSON or stream.
    expect(planRoute({ response: Token, events: { token: Token } } as never).stripper).toBeDefined()
  })

  it.each([
    [{ events: { token: Token }, stream: Token }, 'SG_ERR_OPTION_CONFLICT', /events and stream/],
    [{ events: Token }, 'SG_ERR_INVALID_OPTION', /events must be an object/],
    [{ events: {} }, 'SG_ERR_INVALID_OPTION', /events must be an object/],
    [{ events: { error: Token } }, 'SG_ERR_INVALID_OPTION', /"error" is the name/],
    [{ events: { 'a b': Token } }, 'SG_ERR_INVALID_OPTION', /an event name must be/],
    [{ events: { 'a\nb': Token } }, 'SG_ERR_INVALID_OPTION', /an event name must be/],
    [{ events: { token: { text: 'x' } } }, 'SG_ERR_NOT_A_SCHEMA', /events\.token/],
    [{ stream: 'row' }, 'SG_ERR_NOT_A_SCHEMA', /stream/],
  ])('refuses %o', (route, code, message) => {
    let error: unknown
    try {
      handle(route as never, ok)
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(TypeError)
    expect(error).toMatchObject({ code, message: expect.stringMatching(message) })
  })
})

describe('framing', () => {
  it('splits data on line ends and escapes U+2028 and U+2029', () => {
    expect(dataLines('{"a":1}')).toBe('data: {"a":1}\n')
    expect(dataLines('{"a":"\u2028\u2029"}')).toBe('data: {"a":"\\u2028\\u2029"}\n')
    expect(dataLines('1\r\n2\r3\n4')).toBe('data: 1\ndata: 2\ndata: 3\ndata: 4\n')
    expect(ndjsonLine('{"a":"\u2028"}')).toBe('{"a":"\\u2028"}\n')
    expect(ndjsonLine('1\n2')).toBe('1\\n2\n')
  })

  it('refuses an id that could forge a field, keeps a valid Last-Event-ID only', () => {
    expect(idLine(undefined)).toBe('')
    expect(idLine('42')).toBe('id: 42\n')
    for (const id of ['a\nb', 'a\rb', 'a\0b', 7]) {
      expect(() => idLine(id)).toThrow(expect.objectContaining({ code: 'SG_ERR_INVALID_OPTION' }))
    }
    expect(lastEventIdOf('41')).toBe('41')
    expect(lastEventIdOf('')).toBe('')
    expect(lastEventIdOf(['a'])).toBeUndefined()
    expect(lastEventIdOf('a\r\nevent: x')).toBeUndefined()
    expect(lastEventIdOf('x'.repeat(1024))).toHaveLength(1024)
    expect(lastEventIdOf('x'.repeat(1025))).toBeUndefined()
  })
})
