import { describe, expect, it } from 'vitest'
import {
  isAuthority,
  normalizedVariants,
  urlVariants,
} from '../../../src/runtime/webhooks/twilio-url.js'

describe('isAuthority', () => {
  it('takes a host name, an IPv4 or a bracketed IPv6 address, with an optional port', () => {
    for (const ok of ['api.example.com', 'localhost:3000', '127.0.0.1:80', '[::1]', '[::1]:8443']) {
      expect(isAuthority(ok), ok).toBe(true)
    }
  })

  it('refuses anything that could carry a path, a user or a second host', () => {
    for (const bad of [
      '',
      'api.example.com/twilio',
      'a.example?x',
      'a.example#x',
      'user@a.example',
      'a.example:',
      'a.example:123456',
      'a.example:80x',
      '[::1',
      '[]',
      'a example',
      'a.example\\x',
    ]) {
      expect(isAuthority(bad), bad).toBe(false)
    }
  })
})

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
