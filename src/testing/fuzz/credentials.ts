import { optionError } from '../../shared/error-codes.js'
import { isObject } from '../../shared/is-object.js'
import type { SecurityScheme } from '../../shared/security-scheme.js'

// The credentials of `fuzzRoutes({ auth })` for each security scheme, where they travel, and
// wrong ones of the same shape for the ignored_auth check.

/** Basic credentials: the user and the password. */
export interface BasicCredential {
  readonly user: string
  readonly password: string
}

/**
 * A scheme's credential: a bearer token or an API key (a string), basic credentials
 * (`{ user, password }` or `'user:password'`), or the headers a custom scheme reads.
 */
export type Credential = string | BasicCredential | Readonly<Record<string, string>>

/** Where one scheme's credential travels. */
export interface Placed {
  readonly headers: Readonly<Record<string, string>>
  readonly query: readonly (readonly [string, string])[]
  readonly cookies: readonly (readonly [string, string])[]
}

const nothing = { headers: {}, query: [], cookies: [] }

const bearerLike = (doc: SecurityScheme) =>
  (doc.type === 'http' && doc.scheme.toLowerCase() !== 'basic') ||
  doc.type === 'oauth2' ||
  doc.type === 'openIdConnect'

const isBasic = (doc: SecurityScheme) => doc.type === 'http' && doc.scheme.toLowerCase() === 'basic'

// The `Authorization` scheme word: `Bearer` for OAuth 2.0 and OpenID Connect tokens too.
const schemeWord = (doc: SecurityScheme) =>
  doc.type === 'http' ? doc.scheme[0]!.toUpperCase() + doc.scheme.slice(1) : 'Bearer'

function fail(name: string, message: string): never {
  throw optionError(
    'SG_ERR_INVALID_OPTION',
    `shapeguard: fuzzRoutes(): options.auth.${name} ${message}`,
  )
}

function basicOf(name: string, value: Credential): BasicCredential {
  if (typeof value === 'string') {
    const colon = value.indexOf(':')
    if (colon === -1) fail(name, "must be 'user:password' or { user, password }")
    return { user: value.slice(0, colon), password: value.slice(colon + 1) }
  }
  const { user, password } = value as Partial<BasicCredential>
  if (typeof user !== 'string' || typeof password !== 'string' || user.includes(':'))
    fail(name, "must be 'user:password' or { user, password } (strings, no ':' in the user)")
  return { user, password }
}

function placeKey(doc: SecurityScheme & { type: 'apiKey' }, key: string): Placed {
  if (doc.in === 'header') return { ...nothing, headers: { [doc.name.toLowerCase()]: key } }
  if (doc.in === 'query') return { ...nothing, query: [[doc.name, key]] }
  return { ...nothing, cookies: [[doc.name, key]] }
}

const lowerKeys = (headers: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))

/**
 * Where the credential given for a scheme travels, as its document says: a token in
 * `Authorization` (bearer, OAuth 2.0, OpenID Connect), basic credentials encoded there, an API key
 * in its header, query parameter or cookie, a headers object as it is (any scheme). Throws a
 * TypeError naming the scheme when the value does not fit it.
 */
export function place(name: string, doc: SecurityScheme, value: Credential): Placed {
  if (isObject(value) && !isBasic(doc)) {
    for (const [header, v] of Object.entries(value))
      if (typeof v !== 'string') fail(name, `.${header} must be a string (a header's value)`)
    return { ...nothing, headers: lowerKeys(value as Record<string, string>) }
  }
  if (isBasic(doc)) {
    const { user, password } = basicOf(name, value)
    const encoded = Buffer.from(`${user}:${password}`, 'utf8').toString('base64')
    return { ...nothing, headers: { authorization: `Basic ${encoded}` } }
  }
  if (typeof value !== 'string' || value === '') fail(name, 'must be a non-empty string')
  if (doc.type === 'apiKey') return placeKey(doc, value)
  if (bearerLike(doc))
    return { ...nothing, headers: { authorization: `${schemeWord(doc)} ${value}` } }
  return fail(name, `is of a ${doc.type} scheme: give the headers its requests carry, as an object`)
}

/** A generator of wrong values, the same for a seed: a failure replays. */
export type Random = () => number

/** mulberry32: small, seeded, enough to make values no verifier knows. */
export function random(seed: number): Random {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

const classes = ['0123456789', 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ']

/** A value of the same shape that differs from `value` at every letter and digit. */
export function lookalike(value: string, rand: Random): string {
  let out = ''
  for (const c of value) {
    const set = classes.find((s) => s.includes(c))
    if (set === undefined) out += c
    else {
      const i = set.indexOf(c)
      out += set[(i + 1 + Math.floor(rand() * (set.length - 1))) % set.length]
    }
  }
  return out === value ? `${value}x` : out
}

const letters = classes.join('')
const token = (rand: Random, n: number) =>
  Array.from({ length: n }, () => letters[Math.floor(rand() * letters.length)]).join('')

const b64url = (text: string) => Buffer.from(text).toString('base64url')

// A JSON Web Token's shape, signed by no key: a verifier must refuse it.
const fakeJwt = (rand: Random) =>
  `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(`{"sub":"${token(rand, 12)}"}`)}.${token(rand, 43)}`

/**
 * Wrong credentials of the scheme's shape: the given ones with every letter and digit changed
 * (basic: the user kept, the password changed), else made up (a JWT's shape for a `JWT` bearer
 * format); undefined for a scheme the fuzzer cannot make one for (mutual TLS without headers).
 */
export function wrongFor(
  name: string,
  doc: SecurityScheme,
  given: Credential | undefined,
  rand: Random,
): Placed | undefined {
  if (isObject(given) && !isBasic(doc)) {
    const headers = Object.entries(given as Record<string, string>)
    return place(name, doc, Object.fromEntries(headers.map(([h, v]) => [h, lookalike(v, rand)])))
  }
  if (isBasic(doc)) {
    const basic = given === undefined ? undefined : basicOf(name, given)
    const user = basic?.user ?? `fuzz-${token(rand, 6)}`
    const password = basic === undefined ? token(rand, 16) : lookalike(basic.password || 'p', rand)
    return place(name, doc, { user, password })
  }
  const known = typeof given === 'string' ? given : undefined
  if (doc.type === 'apiKey')
    return place(name, doc, known ? lookalike(known, rand) : token(rand, 32))
  if (!bearerLike(doc)) return undefined
  const jwt = doc.type === 'http' && doc.bearerFormat?.toUpperCase() === 'JWT'
  return place(name, doc, known ? lookalike(known, rand) : jwt ? fakeJwt(rand) : token(rand, 32))
}

/** The header names a credential in `Authorization` or in a header already given counts for. */
export function coveredByHeaders(doc: SecurityScheme, headers: Readonly<Record<string, string>>) {
  if (doc.type === 'apiKey') return doc.in === 'header' && doc.name.toLowerCase() in headers
  return (isBasic(doc) || bearerLike(doc)) && 'authorization' in headers
}
