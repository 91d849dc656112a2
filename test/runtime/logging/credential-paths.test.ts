import { describe, expect, it } from 'vitest'
import { resolveAuth } from '../../../src/runtime/auth/resolve-auth.js'
import type { AuthConfig } from '../../../src/runtime/auth/types.js'
import { credentialPaths } from '../../../src/runtime/logging/credential-paths.js'
import { validateRedactPaths } from '../../../src/runtime/logging/redact-paths.js'
import { createRedactor } from '../../../src/runtime/logging/redactor.js'

const verify = () => ({ client: 'ci' })
const document = { type: 'http', scheme: 'digest' } as const

function pathsOf(auth: AuthConfig): readonly string[] {
  return credentialPaths(resolveAuth(auth, undefined).schemes)
}

describe('credentialPaths', () => {
  it("names each API key's location, normalised as the redactor compares keys", () => {
    expect(
      pathsOf({
        bearer: verify,
        basic: verify,
        client: { in: 'header', name: 'X-Client.Key', verify },
        link: { in: 'query', name: 'k', verify },
        session: { in: 'cookie', name: 'SG_Key', verify },
        digest: { type: 'custom', verify, document },
      }),
    ).toEqual([
      'req.headers.xclientkey',
      'req.query.k',
      'req.cookies.sgkey',
      'req.signedCookies.sgkey',
    ])
  })

  it('names nothing for bearer, basic and custom schemes: they travel in Authorization, or anywhere', () => {
    expect(pathsOf({ bearer: verify, digest: { type: 'custom', verify, document } })).toEqual([])
  })

  it('gives paths the redactor takes as they are', () => {
    const paths = pathsOf({ link: { in: 'query', name: 'k', verify } })
    expect(validateRedactPaths(paths)).toEqual(paths)
  })
})

describe('URLs in logged values', () => {
  const redact = createRedactor(pathsOf({ link: { in: 'query', name: 'k', verify } }))

  it("masks a credential parameter's value in every string, by any spelling of its name", () => {
    expect(
      redact({
        url: '/x?k=K1&page=2',
        nested: { link: 'https://h/cb?K=K2#top', list: ['?access_token=T1'] },
        query: 'page=2&k=K3',
        note: 'k=K4 is the whole value',
      }),
    ).toEqual({
      url: '/x?k=[REDACTED]&page=2',
      nested: { link: 'https://h/cb?K=[REDACTED]#top', list: ['?access_token=[REDACTED]'] },
      query: 'page=2&k=[REDACTED]',
      note: 'k=[REDACTED]',
    })
  })

  it('masks what is left of a value a byte budget cut into', () => {
    const budget = { left: 12 }
    const copy = redact({ url: '/x?k=SECRETSECRET' }, [], budget) as { url: string }
    expect(copy.url).toBe('/x?k=[REDACTED]')
  })

  it("masks the parameters of the app's own redact paths too, and no other", () => {
    const own = createRedactor(['req.query.ref', 'dob'])
    expect(own({ url: '/x?ref=R1&dob=D1&page=2' })).toEqual({
      url: '/x?ref=[REDACTED]&dob=[REDACTED]&page=2',
    })
    expect(createRedactor([])({ url: '/x?ref=R1&page=2' })).toEqual({ url: '/x?ref=R1&page=2' })
  })
})
