import { describe, expect, it } from 'vitest'
import { lookalike, place, random, wrongFor } from '../../../src/testing/fuzz/credentials.js'

const bearer = { type: 'http', scheme: 'bearer' } as const
const jwt = { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } as const
const basic = { type: 'http', scheme: 'basic' } as const
const cookieKey = { type: 'apiKey', in: 'cookie', name: 'sid' } as const
const queryKey = { type: 'apiKey', in: 'query', name: 'api_key' } as const

describe('place', () => {
  it('sends each credential where its scheme says', () => {
    expect(place('b', bearer, 'tok').headers).toEqual({ authorization: 'Bearer tok' })
    expect(place('s', basic, 'ada:p:w').headers).toEqual({
      authorization: `Basic ${Buffer.from('ada:p:w').toString('base64')}`,
    })
    expect(place('s', basic, { user: 'ada', password: 'pw' }).headers.authorization).toBe(
      `Basic ${Buffer.from('ada:pw').toString('base64')}`,
    )
    expect(place('k', queryKey, 'k1').query).toEqual([['api_key', 'k1']])
    expect(place('k', cookieKey, 'k1').cookies).toEqual([['sid', 'k1']])
    expect(place('c', cookieKey, { 'X-Session': 'v' }).headers).toEqual({ 'x-session': 'v' })
  })

  it('refuses a value that does not fit the scheme, naming it', () => {
    expect(() => place('basic', basic, 'no-colon')).toThrow(
      "shapeguard: fuzzRoutes(): options.auth.basic must be 'user:password' or { user, password }",
    )
    expect(() => place('b', bearer, '')).toThrow('options.auth.b must be a non-empty string')
    expect(() => place('m', { type: 'mutualTLS' }, 'x')).toThrow(
      'options.auth.m is of a mutualTLS scheme: give the headers its requests carry, as an object',
    )
  })
})

describe('wrongFor', () => {
  it('changes every letter and digit of the given credential, keeping its shape', () => {
    const rand = random(1)
    const wrong = lookalike('eyJ.abc-123', rand)
    expect(wrong).toMatch(/^[a-z]{2}[A-Z]\.[a-z]{3}-\d{3}$/)
    expect([...wrong].filter((c, i) => /[a-z0-9]/i.test(c) && c === 'eyJ.abc-123'[i])).toEqual([])
    expect(wrongFor('b', bearer, 'tok', rand)?.headers.authorization).toMatch(/^Bearer [a-z]{3}$/)
  })

  it('keeps the basic user and changes the password', () => {
    const wrong = wrongFor('s', basic, 'ada:pw1', random(2))!.headers.authorization!
    const [user, password] = Buffer.from(wrong.slice(6), 'base64').toString().split(':')
    expect(user).toBe('ada')
    expect(password).toMatch(/^[a-z]{2}\d$/)
    expect(password).not.toBe('pw1')
  })

  it('makes one up without a given credential, a JWT for a JWT bearer, the same for a seed', () => {
    expect(wrongFor('j', jwt, undefined, random(3))?.headers.authorization).toMatch(
      /^Bearer eyJ[\w-]+\.[\w-]+\.[\w-]+$/,
    )
    expect(wrongFor('k', queryKey, undefined, random(3))).toEqual(
      wrongFor('k', queryKey, undefined, random(3)),
    )
    expect(wrongFor('m', { type: 'mutualTLS' }, undefined, random(3))).toBeUndefined()
  })
})
