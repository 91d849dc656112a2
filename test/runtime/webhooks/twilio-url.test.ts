import { describe, expect, it } from 'vitest'
import { normalizedVariants, urlVariants } from '../../../src/runtime/webhooks/twilio-url.js'

describe('urlVariants', () => {
  it('adds the default port when there is none, and drops a port that is there', () => {
    expect(urlVariants('https://a.example/x?y=1')).toEqual([
      'https://a.example/x?y=1',
      'https://a.example:443/x?y=1',
    ])
    expect(urlVariants('http://a.example')).toEqual(['http://a.example', 'http://a.example:80'])
    expect(urlVariants('https://a.example:8443/x')).toEqual([
      'https://a.example:8443/x',
      'https://a.example/x',
    ])
  })

  it('leaves the path and query exactly as given, and reads IPv6 hosts', () => {
    expect(urlVariants("https://a.example/it's?q=a:b")).toEqual([
      "https://a.example/it's?q=a:b",
      "https://a.example:443/it's?q=a:b",
    ])
    expect(urlVariants('http://[::1]:3000/h')).toEqual(['http://[::1]:3000/h', 'http://[::1]/h'])
    expect(urlVariants('http://[::1]/h')).toEqual(['http://[::1]/h', 'http://[::1]:80/h'])
    expect(urlVariants('not a url')).toEqual(['not a url'])
  })
})

describe('normalizedVariants', () => {
  it('adds the WHATWG spelling and the legacy querystring spelling, not those tried already', () => {
    expect(normalizedVariants("https://a.example/hook?name=O'Brien&x=a b")).toEqual([
      'https://a.example/hook?name=O%27Brien&x=a%20b',
      "https://a.example/hook?name=O'Brien&x=a%20b",
      'https://a.example:443/hook?name=O%27Brien&x=a%20b',
      "https://a.example:443/hook?name=O'Brien&x=a%20b",
    ])
    expect(normalizedVariants('https://a.example/hook?x=a+b')).toEqual([
      'https://a.example/hook?x=a%20b',
      'https://a.example:443/hook?x=a%20b',
    ])
    expect(normalizedVariants('https://a.example/plain')).toEqual([])
    expect(normalizedVariants('not a url')).toEqual([])
  })
})
