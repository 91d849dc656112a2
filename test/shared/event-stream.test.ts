import { describe, expect, it } from 'vitest'
import { NdjsonParser, SseParser } from '../../src/shared/event-stream.js'

function parseAll(pieces: string[], parser = new SseParser()) {
  return pieces.flatMap((piece) => parser.push(piece))
}

describe('SseParser', () => {
  it('reads events, names, IDs and multi-line data as EventSource does', () => {
    const events = parseAll([
      ': ping\n\nretry: 3000\nevent: token\ndata: {"a":1}\nid: 7\n\ndata: one\ndata: two\n\n',
    ])
    expect(events).toEqual([
      { event: 'token', data: '{"a":1}', id: '7' },
      { event: 'message', data: 'one\ntwo', id: '7' },
    ])
  })

  it('takes CRLF, CR and LF line ends, even split between pieces', () => {
    const text = 'event: a\r\ndata: x\r\rdata: y\r\n\r\n'
    for (let cut = 0; cut <= text.length; cut++) {
      const parser = new SseParser()
      expect(parseAll([text.slice(0, cut), text.slice(cut)], parser)).toEqual([
        { event: 'a', data: 'x', id: '' },
        { event: 'message', data: 'y', id: '' },
      ])
      expect(parser.retry).toBeUndefined()
    }
  })

  it('keeps retry and the last ID for a reconnection, ignores an ID with NUL and a bad retry', () => {
    const parser = new SseParser('3')
    parseAll(['retry: 1500\nretry: 1x\nid: 4\u0000\ndata\n\n'], parser)
    expect(parser.retry).toBe(1500)
    expect(parser.lastEventId).toBe('3')
  })

  it('counts an id once its block ends, with or without data, as EventSource does', () => {
    const parser = new SseParser('1')
    expect(parseAll(['id: 2\ndata: a'], parser)).toEqual([])
    expect(parser.lastEventId).toBe('1')
    expect(parseAll(['\n\nid: 3\n\n'], parser)).toEqual([{ event: 'message', data: 'a', id: '2' }])
    expect(parser.lastEventId).toBe('3')
  })

  it('drops a leading BOM and an unterminated last event', () => {
    expect(parseAll(['\ufeffdata: a\n\ndata: b'])).toEqual([
      { event: 'message', data: 'a', id: '' },
    ])
  })

  it('refuses a line longer than its bound', () => {
    expect(() => new SseParser('', 8).push('data: 123456789')).toThrow(RangeError)
  })

  it("refuses an event's data past the bound, however many lines carry it", () => {
    const parser = new SseParser('', 16)
    expect(() => {
      for (let i = 0; i < 100; i++) parser.push('data: 12345\n')
    }).toThrow(RangeError)
  })

  it('reads CR, an empty piece, then LF as one line end', () => {
    expect(parseAll(['data: a\r', '', '\n\n'])).toEqual([{ event: 'message', data: 'a', id: '' }])
  })
})

describe('NdjsonParser', () => {
  it('gives each line once, skips blank lines, and the last line without an end', () => {
    const parser = new NdjsonParser()
    expect(parser.push('{"a":1}\r\n\n{"b"')).toEqual(['{"a":1}'])
    expect(parser.push(':2}\n[3]')).toEqual(['{"b":2}'])
    expect(parser.end()).toEqual(['[3]'])
  })
})
