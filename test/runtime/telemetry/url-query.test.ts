import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { AttributeValue, SpanLike } from '../../../src/runtime/telemetry/otel-api.js'
import { maskQuery, maskSpanUrl } from '../../../src/runtime/telemetry/url-query.js'

const secret = (name: string) => name === 'api_key' || name === 'token'

describe('maskQuery', () => {
  it.each([
    ['/items?api_key=K1&page=2', '/items?api_key=***&page=2'],
    ['/items?page=2&token=T1', '/items?page=2&token=***'],
    ['http://h:1/x?token=T1#frag', 'http://h:1/x?token=***#frag'],
    ['api_key=K1&page=2', 'api_key=***&page=2'],
    ['?api_key=K1', '?api_key=***'],
    // How a parser reads the name: decoded, `+` a space, brackets an array or object.
    ['/x?api%5Fkey=K1', '/x?api%5Fkey=***'],
    ['/x?api_key[]=K1&api_key[0]=K2', '/x?api_key[]=***&api_key[0]=***'],
    // A `?` in a value: what follows it is read as a parameter too.
    ['/x?q=a?token=T1', '/x?q=a?token=***'],
    // A path segment holding `=` does not hide the query behind it.
    ['/a=b/x?token=T1', '/a=b/x?token=***'],
    ['/x?api_key=&page=2', '/x?api_key=&page=2'],
    ['/x?%zz=1&token=T1', '/x?%zz=1&token=***'],
    ['/x?page=2', '/x?page=2'],
    ['no query at all', 'no query at all'],
  ])('%s', (text, want) => {
    expect(maskQuery(text, secret, '***')).toBe(want)
  })

  it('never lets a secret value through, whatever surrounds it', () => {
    const part = fc.string({ unit: 'binary', maxLength: 12 })
    fc.assert(
      fc.property(part, part, fc.constantFrom('?', '&'), (before, after, lead) => {
        const value = 'SECRETVALUE'
        const text = `${before}${lead}token=${value}${after}`
        const masked = maskQuery(text, secret, '***')
        // Only a value the text already held elsewhere may remain.
        const elsewhere = `${before}${after}`.includes(value)
        expect(elsewhere || !masked.includes(value)).toBe(true)
      }),
    )
  })

  it('takes linear time on hostile text', () => {
    const text = `${'?a'.repeat(200_000)}=${'&'.repeat(200_000)}`
    const start = performance.now()
    maskQuery(text, secret, '***')
    expect(performance.now() - start).toBeLessThan(500)
  })
})

function span(attributes: Record<string, AttributeValue>, recording = true) {
  const set: [string, AttributeValue][] = []
  const fake = {
    attributes,
    isRecording: () => recording,
    setAttribute(key: string, value: AttributeValue) {
      set.push([key, value])
      attributes[key] = value
    },
  } as unknown as SpanLike & { attributes: Record<string, AttributeValue> }
  return { fake, set }
}

describe('maskSpanUrl', () => {
  it("masks the URL attributes of either semantic conventions with OpenTelemetry's mark", () => {
    const { fake, set } = span({
      'url.query': 'api_key=K1&page=2',
      'url.full': 'http://h/x?token=T1',
      'http.target': '/x?token=T1',
      'http.url': 'http://h/x?page=1',
      'url.path': '/x',
    })
    maskSpanUrl(fake, secret)
    expect(set).toEqual([
      ['url.query', 'api_key=REDACTED&page=2'],
      ['url.full', 'http://h/x?token=REDACTED'],
      ['http.target', '/x?token=REDACTED'],
    ])
  })

  it('leaves a span alone when it is not recording, has no attributes, or throws', () => {
    const idle = span({ 'url.query': 'token=T1' }, false)
    maskSpanUrl(idle.fake, secret)
    expect(idle.set).toEqual([])
    const bare = { isRecording: () => true, setAttribute: () => expect.fail() }
    expect(() => maskSpanUrl(bare as unknown as SpanLike, secret)).not.toThrow()
    const hostile = {
      isRecording: () => {
        throw new Error('no')
      },
    }
    expect(() => maskSpanUrl(hostile as unknown as SpanLike, secret)).not.toThrow()
    expect(() => maskSpanUrl(undefined, secret)).not.toThrow()
  })
})
