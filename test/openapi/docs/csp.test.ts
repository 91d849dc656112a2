import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { buildCsp, scriptHash, serverOrigins } from '../../../src/openapi/docs/csp.js'

describe('buildCsp', () => {
  const csp = buildCsp({
    assetOrigin: 'https://cdn.jsdelivr.net',
    inlineScripts: ['boot()'],
    connectOrigins: ['https://api.example.com'],
    imageOrigins: ['https://img.example.com'],
  })
  const directive = (name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `))

  it('allows scripts only from the asset origin and the hashed bootstrap', () => {
    const hash = createHash('sha256').update('boot()').digest('base64')
    expect(directive('script-src')).toBe(`script-src https://cdn.jsdelivr.net 'sha256-${hash}'`)
    expect(scriptHash('boot()')).toBe(`'sha256-${hash}'`)
    expect(csp).not.toMatch(/script-src[^;]*unsafe/)
  })

  it('shuts everything else', () => {
    expect(directive('default-src')).toBe("default-src 'none'")
    expect(directive('connect-src')).toBe("connect-src 'self' https://api.example.com")
    expect(directive('img-src')).toBe("img-src 'self' data: https://img.example.com")
    for (const d of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
      expect(csp).toContain(d)
    }
  })
})

describe('serverOrigins', () => {
  it('takes the origin of absolute http(s) server URLs and nothing else', () => {
    const spec = {
      servers: [
        { url: 'https://api.example.com/v1' },
        { url: 'http://localhost:3000' },
        { url: '/relative' },
        { url: 'javascript:alert(1)' },
        { url: "https://evil.example; script-src 'unsafe-inline'" },
        { url: 'https://{region}.example.com' },
        { url: 'https://{region}.example.com:{port}', variables: { region: { default: 'eu' } } },
        { url: 'https://{region}.example.com', variables: { region: { default: 'us' } } },
        { url: 'https://{x}.example.com', variables: { x: { default: 'a;b' } } },
        { url: 'https://[::1]:8080' },
        null,
        { url: 42 },
      ],
    }
    expect(serverOrigins(spec)).toEqual([
      'https://api.example.com',
      'http://localhost:3000',
      'https://us.example.com',
    ])
    expect(serverOrigins({ servers: 'x' })).toEqual([])
  })

  it('adds the OAuth2 token and refresh URLs and the OpenID discovery URL, once each', () => {
    const spec = {
      servers: [{ url: 'https://api.example.com' }],
      components: {
        securitySchemes: {
          oauth: {
            type: 'oauth2',
            flows: {
              authorizationCode: {
                authorizationUrl: 'https://login.example.com/authorize',
                tokenUrl: 'https://login.example.com/token',
                refreshUrl: 'https://refresh.example.com/r',
                scopes: {},
              },
              clientCredentials: { tokenUrl: 'javascript:alert(1)', scopes: {} },
            },
          },
          oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://id.example.com/.well-known' },
          api: { type: 'http', scheme: 'bearer' },
          broken: null,
        },
      },
    }
    expect(serverOrigins(spec)).toEqual([
      'https://api.example.com',
      'https://login.example.com',
      'https://refresh.example.com',
      'https://id.example.com',
    ])
  })
})
