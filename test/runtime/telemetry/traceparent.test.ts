import { describe, expect, it } from 'vitest'
import { isHexId, parseTraceparent } from '../../../src/runtime/telemetry/traceparent.js'

const TRACE = '12345678901234567890123456789012'
const SPAN = '1234567890123456'

// The cases of the W3C Trace Context test suite (w3c/trace-context test/test.py) that a parser
// decides alone; header-name casing and OWS are HTTP's (Node lower-cases names and trims values).
describe('parseTraceparent', () => {
  it('reads a version-00 header', () => {
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-01`)).toEqual({
      traceId: TRACE,
      spanId: SPAN,
      traceFlags: '01',
    })
    expect(parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00')).toEqual({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: '00',
    })
  })

  it('keeps every flag bit (W3C level 2 adds the random bit, 02)', () => {
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-03`)?.traceFlags).toBe('03')
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-ff`)?.traceFlags).toBe('ff')
  })

  it.each([
    ['anything after a version-00 header', `00-${TRACE}-${SPAN}-01.`],
    [
      'a version-00 header with a future tail',
      `00-${TRACE}-${SPAN}-01-what-the-future-will-be-like`,
    ],
  ])('refuses %s', (_, header) => {
    expect(parseTraceparent(header)).toBeUndefined()
  })

  it('reads a future version, with or without a tail after a dash', () => {
    expect(parseTraceparent(`cc-${TRACE}-${SPAN}-01`)?.traceId).toBe(TRACE)
    expect(parseTraceparent(`cc-${TRACE}-${SPAN}-01-what-the-future-will-be-like`)).toEqual({
      traceId: TRACE,
      spanId: SPAN,
      traceFlags: '01',
    })
    expect(parseTraceparent(`cc-${TRACE}-${SPAN}-01.what-the-future-will-be-like`)).toBeUndefined()
  })

  it.each([
    ['version ff', `ff-${TRACE}-${SPAN}-01`],
    ['an illegal character in the version', `.0-${TRACE}-${SPAN}-01`],
    ['an illegal character at the end of the version', `0.-${TRACE}-${SPAN}-01`],
    ['a three-digit version', `000-${TRACE}-${SPAN}-01`],
    ['a four-digit version', `0000-${TRACE}-${SPAN}-01`],
    ['a one-digit version', `0-${TRACE}-${SPAN}-01`],
    ['an all-zero trace ID', `00-${'0'.repeat(32)}-${SPAN}-01`],
    ['an illegal first character in the trace ID', `00-.${TRACE.slice(1)}-${SPAN}-01`],
    ['an illegal last character in the trace ID', `00-${TRACE.slice(0, -1)}.-${SPAN}-01`],
    ['a trace ID too long', `00-${TRACE}3-${SPAN}-01`],
    ['a trace ID too short', `00-${TRACE.slice(1)}-${SPAN}-01`],
    ['an all-zero parent ID', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['an illegal first character in the parent ID', `00-${TRACE}-.${SPAN.slice(1)}-01`],
    ['an illegal last character in the parent ID', `00-${TRACE}-${SPAN.slice(0, -1)}.-01`],
    ['a parent ID too long', `00-${TRACE}-${SPAN}7-01`],
    ['a parent ID too short', `00-${TRACE}-${SPAN.slice(1)}-01`],
    ['an illegal first character in the flags', `00-${TRACE}-${SPAN}-.0`],
    ['an illegal last character in the flags', `00-${TRACE}-${SPAN}-0.`],
    ['flags too long', `00-${TRACE}-${SPAN}-001`],
    ['flags too short', `00-${TRACE}-${SPAN}-1`],
  ])('refuses %s (W3C suite)', (_, header) => {
    expect(parseTraceparent(header)).toBeUndefined()
  })

  it.each([
    ['an upper-case trace ID', `00-${'4BF92F3577B34DA6A3CE929D0E0E4736'}-${SPAN}-01`],
    ['an upper-case parent ID', `00-${TRACE}-00F067AA0BA902B7-01`],
    ['upper-case flags', `00-${TRACE}-${SPAN}-0A`],
    ['an upper-case version', `0A-${TRACE}-${SPAN}-01`],
    ['leading whitespace (Node trims it before a parser sees it)', ` 00-${TRACE}-${SPAN}-01`],
    ['the empty string', ''],
    ['dashes in the wrong places', `00${TRACE}--${SPAN}-01-`],
  ])('refuses %s', (_, header) => {
    expect(parseTraceparent(header)).toBeUndefined()
  })

  it('refuses a repeated header, as Node joins the copies', () => {
    const one = `00-${TRACE}-${SPAN}-01`
    expect(parseTraceparent(`${one}, ${one}`)).toBeUndefined()
    expect(parseTraceparent(`cc-${TRACE}-${SPAN}-01, ${one}`)).toBeUndefined()
    expect(parseTraceparent([one, one])).toBeUndefined()
  })

  it('refuses values that are not strings', () => {
    for (const value of [undefined, null, 42, {}, [`00-${TRACE}-${SPAN}-01`]]) {
      expect(parseTraceparent(value)).toBeUndefined()
    }
  })

  it('refuses non-ASCII look-alikes: full-width digits, Arabic-Indic digits, a combining mark', () => {
    const fullWidth = '\uff11'.repeat(32)
    expect(parseTraceparent(`00-${fullWidth}-${SPAN}-01`)).toBeUndefined()
    expect(parseTraceparent(`00-${'\u0661'.repeat(32)}-${SPAN}-01`)).toBeUndefined()
    expect(parseTraceparent(`00-${TRACE.slice(0, -1)}\u0301-${SPAN}-01`)).toBeUndefined()
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-0\u{1d7ce}`)).toBeUndefined()
  })

  it('decides a megabyte-long header from its first 56 characters', () => {
    const tail = `-${'x'.repeat(1 << 20)}`
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-01${tail}`)).toBeUndefined()
    expect(parseTraceparent(`cc-${TRACE}-${SPAN}-01${tail}`)?.traceId).toBe(TRACE)
    expect(parseTraceparent(`cc-${TRACE}-${SPAN}-01${tail.replace('-', '\u2028')}`)).toBeUndefined()
  })

  it('returns only the hex it read, never the rest of the header', () => {
    const ids = parseTraceparent(`cc-${TRACE}-${SPAN}-01-<script>secret</script>`)
    expect(JSON.stringify(ids)).not.toContain('script')
  })
})

describe('isHexId', () => {
  it('takes lower-case hex of the given length, not all zero', () => {
    expect(isHexId(TRACE, 32)).toBe(true)
    expect(isHexId(SPAN, 16)).toBe(true)
    expect(isHexId(SPAN, 32)).toBe(false)
    expect(isHexId('0'.repeat(16), 16)).toBe(false)
    expect(isHexId('ABCDEF0123456789', 16)).toBe(false)
    expect(isHexId('g'.repeat(16), 16)).toBe(false)
  })
})
