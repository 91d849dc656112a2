import signature from 'cookie-signature'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { toAdapter } from '../../../src/adapters/resolve.js'
import { cookieJar, unsignCookie } from '../../../src/runtime/cookies/cookie-jar.js'
import { resolveCookieOptions } from '../../../src/runtime/cookies/cookie-options.js'
import { declaredNames } from '../../../src/runtime/cookies/declared-names.js'
import { resolveConfig } from '../../../src/runtime/middleware/resolve-config.js'

const jarOf = (cookie: string | undefined, secrets: readonly string[] = ['k']) =>
  cookieJar({ headers: { cookie } } as never, secrets)

describe('cookies.secrets', () => {
  it('is kept, current first, on the resolved configuration', () => {
    expect(resolveConfig({ cookies: { secrets: ['new', 'old'] } }).cookies.secrets).toEqual([
      'new',
      'old',
    ])
    expect(resolveConfig({}).cookies.secrets).toEqual([])
  })

  it.each([
    [
      { secrets: [] },
      'shapeguard: cookies.secrets: must be a non-empty array of strings, the current secret first',
    ],
    [
      { secrets: 'k' },
      'shapeguard: cookies.secrets: must be a non-empty array of strings, the current secret first',
    ],
    [{ secrets: ['k', ''] }, 'shapeguard: cookies.secrets[1]: must be a non-empty string'],
    [{ secrets: [42] }, 'shapeguard: cookies.secrets[0]: must be a non-empty string'],
    [{ secret: ['k'] }, 'shapeguard: cookies: secret is not an option (secrets)'],
    ['k', 'shapeguard: cookies: must be an object'],
  ])('refuses %j at mount', (cookies, message) => {
    expect(() => resolveCookieOptions(cookies as never)).toThrow(message)
    expect(() => resolveConfig({ cookies: cookies as never })).toThrow(
      expect.objectContaining({ message, code: expect.stringMatching(/^SG_ERR_/) }),
    )
  })
})

describe('cookieJar', () => {
  it('files plain, verified and forged cookies apart, in null-prototype records', () => {
    const good = `s:${signature.sign('v', 'k')}`
    const jar = jarOf(`a=1; g=${encodeURIComponent(good)}; f=s%3Av.bad; n=s%3Anodot`)
    expect(Object.getPrototypeOf(jar.plain)).toBe(null)
    expect(Object.getPrototypeOf(jar.signed)).toBe(null)
    expect({ ...jar.plain }).toEqual({ a: '1' })
    expect({ ...jar.signed }).toEqual({ g: 'v' })
    expect([...jar.forged]).toEqual(['f', 'n'])
  })

  it('reads no header as no cookies, and __proto__ as a name like any other', () => {
    expect({ ...jarOf(undefined).plain }).toEqual({})
    const jar = jarOf('__proto__=x; constructor=y')
    expect(Object.keys(jar.plain)).toEqual(['__proto__', 'constructor'])
    expect(Object.getPrototypeOf(jar.plain)).toBe(null)
  })

  it('reads each request once per app (its secrets)', () => {
    const req = { headers: { cookie: `g=${encodeURIComponent(`s:${signature.sign('v', 'b')}`)}` } }
    const a = ['a']
    expect(cookieJar(req as never, a)).toBe(cookieJar(req as never, a))
    expect({ ...cookieJar(req as never, ['b']).signed }).toEqual({ g: 'v' })
  })
})

describe('unsignCookie', () => {
  it('tries each secret in turn, as cookie-parser does', () => {
    const old = `s:${signature.sign('v', 'old')}`
    expect(unsignCookie(old, ['new', 'old'])).toBe('v')
    expect(unsignCookie(old, ['new'])).toBeUndefined()
    expect(unsignCookie('s:v', ['new'])).toBeUndefined()
  })
})

describe('declaredNames', () => {
  const names = (schema: unknown) => {
    const found = declaredNames(toAdapter(schema))
    return found === undefined ? undefined : [...found].sort()
  }

  it('lists the keys of an object, through wrappers, unions and intersections', () => {
    expect(names(z.object({ session: z.string() }))).toEqual(['session'])
    expect(names(z.object({ a: z.string() }).optional())).toEqual(['a'])
    expect(names(z.object({ a: z.string() }).or(z.object({ b: z.string() })))).toEqual(['a', 'b'])
    expect(names(z.object({ a: z.string() }).and(z.object({ b: z.string() })))).toEqual(['a', 'b'])
  })

  it('gives none it cannot list (every name then counts as declared)', () => {
    expect(names(z.record(z.string(), z.string()))).toBeUndefined()
    expect(names(z.object({ a: z.string() }).or(z.record(z.string(), z.string())))).toBeUndefined()
  })
})
