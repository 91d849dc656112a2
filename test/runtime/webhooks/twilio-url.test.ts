import { describe, expect, it } from 'vitest'
import { urlVariants } from '../../../src/runtime/webhooks/twilio-url.js'

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
