import { describe, expect, it } from 'vitest'
import {
  authorizationParam,
  MAX_CREDENTIAL_LENGTH,
  MISSING,
  REFUSED,
  sentTwice,
} from '../../../src/runtime/auth/authorization.js'
import { readApiKey } from '../../../src/runtime/auth/read-api-key.js'
import { readBasic } from '../../../src/runtime/auth/read-basic.js'
import { readBearer } from '../../../src/runtime/auth/read-bearer.js'
import { resolveConfig } from '../../../src/runtime/middleware/resolve-config.js'
import { resolveSchemes } from '../../../src/shared/resolve-schemes.js'

const request = (fields: { headers?: object; query?: unknown; rawHeaders?: string[] }) =>
  ({ headers: {}, query: {}, rawHeaders: [], ...fields }) as never

describe('authorizationParam', () => {
  it.each([
    [undefined, MISSING],
    ['Bearer', MISSING],
    ['Bearer  \t ', MISSING],
    ['Bearerabc', MISSING],
    ['Basic abc', MISSING],
    ['Bearer abc', 'abc'],
    ['bEARER  \tabc', 'abc'],
    ['Bearer a b', REFUSED],
    ['Bearer a\tb', REFUSED],
  ] as const)('%j → %s', (header, expected) => {
    expect(authorizationParam(header, 'bearer')).toBe(expected)
  })

  it(`takes credentials of ${MAX_CREDENTIAL_LENGTH} characters, refuses one more`, () => {
    const at = 'a'.repeat(MAX_CREDENTIAL_LENGTH)
    expect(authorizationParam(`Bearer ${at}`, 'bearer')).toBe(at)
    expect(authorizationParam(`Bearer ${at}a`, 'bearer')).toBe(REFUSED)
  })
})

describe('readBearer', () => {
  it('reads the Authorization header', () => {
    expect(readBearer(request({ headers: { authorization: 'Bearer t' } }))).toBe('t')
    expect(readBearer(request({}))).toBe(MISSING)
  })
})

describe('readBasic', () => {
  const basic = (bytes: string | Buffer) =>
    readBasic(
      request({ headers: { authorization: `Basic ${Buffer.from(bytes).toString('base64')}` } }),
    )

  it('splits at the first ":"; user and password may be empty', () => {
    expect(basic('ada:a:b')).toEqual({ user: 'ada', password: 'a:b' })
    expect(basic(':')).toEqual({ user: '', password: '' })
    expect(basic('zoë:pässword')).toEqual({ user: 'zoë', password: 'pässword' })
  })

  it.each([
    ['no ":"', 'ada'],
    ['invalid UTF-8', Buffer.from([0x61, 0x3a, 0xc3])],
    ['a control character', 'ada:\u0007'],
  ])('refuses %s', (_, bytes) => {
    expect(basic(bytes)).toBe(REFUSED)
  })

  it.each(['@@@@', 'YWRhOmE', 'YW=hOmE=', 'YWRhOmE=='])(
    'refuses %j, not base64 as sent',
    (text) => {
      expect(readBasic(request({ headers: { authorization: `Basic ${text}` } }))).toBe(REFUSED)
    },
  )
})

describe('readApiKey', () => {
  const config = resolveConfig({})
  const schemes = resolveSchemes({
    h: { in: 'header', name: 'X-Key', verify: () => 1 },
    q: { in: 'query', name: 'key', verify: () => 1 },
    c: { in: 'cookie', name: 'key', verify: () => 1 },
    proto: { in: 'query', name: 'constructor', verify: () => 1 },
  })
  const read = (name: string, fields: Parameters<typeof request>[0]) =>
    readApiKey(schemes.get(name) as never, request(fields), config)

  it('reads the lower-cased header, the query parameter, the cookie', () => {
    expect(read('h', { headers: { 'x-key': 'k' } })).toBe('k')
    expect(read('q', { query: { key: 'k' } })).toBe('k')
    expect(read('c', { headers: { cookie: 'a=1; key=k%20v' } })).toBe('k v')
  })

  it('is missing when absent or empty, and never read through a prototype', () => {
    expect(read('h', {})).toBe(MISSING)
    expect(read('q', { query: { key: '' } })).toBe(MISSING)
    expect(read('proto', { query: {} })).toBe(MISSING)
  })

  it('refuses an array, an object or a key too long', () => {
    expect(read('q', { query: { key: ['k', 'k'] } })).toBe(REFUSED)
    expect(read('q', { query: { key: { a: 'k' } } })).toBe(REFUSED)
    expect(read('h', { headers: { 'x-key': 'k'.repeat(MAX_CREDENTIAL_LENGTH + 1) } })).toBe(REFUSED)
  })
})

describe('sentTwice', () => {
  it('finds a second Authorization header in any case', () => {
    expect(sentTwice(request({ rawHeaders: ['Authorization', 'a', 'Host', 'x'] }))).toBe(false)
    expect(sentTwice(request({ rawHeaders: ['Authorization', 'a', 'AUTHORIZATION', 'b'] }))).toBe(
      true,
    )
    expect(sentTwice({ headers: {} } as never)).toBe(false)
  })
})
