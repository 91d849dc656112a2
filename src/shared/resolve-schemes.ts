import { optionError } from './error-codes.js'
import { isObject } from './is-object.js'
import type { ResolvedScheme, SecurityRequirement, SecurityScheme } from './security-scheme.js'

// `auth` and a `security` checked once, at mount or at definition, for the runtime and the document.

const fail = (where: string, what: string): never => {
  throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: ${where}: ${what}`)
}

// A realm is written inside a quoted string of a header: printable ASCII without `"` or `\`.
const QUOTABLE = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/
// An HTTP token (RFC 9110), what a header name and a challenge's scheme are.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
/** How a scheme name of `auth` is spelt, also where `shapeguard fuzz --auth name=value` reads one. */
export const schemeNamePattern = '[A-Za-z_][\\w.~-]*'
const SCHEME_NAME = new RegExp(`^${schemeNamePattern}$`)
const SCHEME_TYPES = ['http', 'apiKey', 'oauth2', 'openIdConnect', 'mutualTLS']

function checkRealm(realm: unknown, where: string): string {
  if (realm === undefined) return 'api'
  if (typeof realm !== 'string' || !QUOTABLE.test(realm))
    fail(`${where}.realm`, 'must be a string of printable ASCII without " or \\')
  return realm as string
}

function checkVerify(verify: unknown, where: string): void {
  if (typeof verify !== 'function') fail(`${where}.verify`, 'must be a function')
}

function checkDescription(scheme: { description?: unknown }, where: string): void {
  if (scheme.description !== undefined && typeof scheme.description !== 'string')
    fail(`${where}.description`, 'must be a string')
}

const withDescription = (document: SecurityScheme, description: unknown): SecurityScheme =>
  typeof description === 'string' ? { ...document, description } : document

/** The challenge a custom scheme sends by default, from the scheme its document describes. */
function defaultChallenge(document: SecurityScheme): string {
  if (document.type === 'http') return `${capitalise(document.scheme)} realm="api"`
  if (document.type === 'apiKey')
    return `ApiKey realm="api", in="${document.in}", name="${document.name}"`
  return 'Bearer realm="api"'
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)

/**
 * Resolves `auth` once, at mount: every scheme checked (a misspelt field, a verifier that is not
 * a function, a function under a name other than `bearer` or `basic`), with its document and its
 * challenge. Throws a TypeError naming `auth.<scheme>.<field>`.
 * @param where the option as errors name it, e.g. `auth`
 */
export function resolveSchemes(auth: unknown, where = 'auth'): ReadonlyMap<string, ResolvedScheme> {
  const out = new Map<string, ResolvedScheme>()
  if (auth === undefined) return out
  if (!isObject(auth)) fail(where, 'must be an object of scheme name → verifier or scheme')
  for (const name of Object.keys(auth as object)) {
    const at = `${where}.${name}`
    if (!SCHEME_NAME.test(name))
      fail(at, 'a scheme name must start with a letter or _ and hold letters, digits, - . _ ~ only')
    const given: unknown = (auth as Record<string, unknown>)[name]
    if (given === undefined) continue
    out.set(name, resolveScheme(name, given, at))
  }
  return out
}

function resolveScheme(name: string, given: unknown, at: string): ResolvedScheme {
  if (typeof given === 'function') {
    if (name === 'bearer') return resolveScheme(name, { type: 'bearer', verify: given }, at)
    if (name === 'basic') return resolveScheme(name, { type: 'basic', verify: given }, at)
    return fail(
      at,
      "a verifier alone is the bearer or basic scheme's; give { type: 'bearer' | 'basic' | 'custom', verify } or { in, name, verify } for a scheme of another name",
    )
  }
  if (!isObject(given)) return fail(at, 'must be a verifier function or a scheme object')
  const scheme = given as Record<string, unknown>
  const type = scheme.type ?? (scheme.in !== undefined ? 'apiKey' : undefined)
  checkVerify(scheme.verify, at)
  checkDescription(scheme, at)
  const verify = scheme.verify as never
  const known = (keys: readonly string[]) => {
    for (const key of Object.keys(scheme))
      if (!keys.includes(key))
        fail(`${at}.${key}`, `is not an option of a ${String(type)} scheme (${keys.join(', ')})`)
  }
  switch (type) {
    case 'bearer': {
      known(['type', 'verify', 'bearerFormat', 'realm', 'description'])
      if (scheme.bearerFormat !== undefined && typeof scheme.bearerFormat !== 'string')
        fail(`${at}.bearerFormat`, 'must be a string')
      const document: SecurityScheme = {
        type: 'http',
        scheme: 'bearer',
        ...(typeof scheme.bearerFormat === 'string' ? { bearerFormat: scheme.bearerFormat } : {}),
      }
      return {
        kind: 'bearer',
        name,
        verify,
        realm: checkRealm(scheme.realm, at),
        document: withDescription(document, scheme.description),
      }
    }
    case 'basic':
      known(['type', 'verify', 'realm', 'description'])
      return {
        kind: 'basic',
        name,
        verify,
        realm: checkRealm(scheme.realm, at),
        document: withDescription({ type: 'http', scheme: 'basic' }, scheme.description),
      }
    case 'apiKey': {
      known(['type', 'in', 'name', 'verify', 'description'])
      const where = scheme.in
      if (where !== 'header' && where !== 'query' && where !== 'cookie')
        fail(`${at}.in`, "must be 'header', 'query' or 'cookie'")
      const key = scheme.name
      if (typeof key !== 'string' || !TOKEN.test(key))
        fail(`${at}.name`, 'must be the name of a header, query parameter or cookie')
      const location = where as 'header' | 'query' | 'cookie'
      return {
        kind: 'apiKey',
        name,
        in: location,
        key: location === 'header' ? (key as string).toLowerCase() : (key as string),
        verify,
        document: withDescription(
          { type: 'apiKey', in: location, name: key as string },
          scheme.description,
        ),
      }
    }
    case 'custom': {
      known(['type', 'verify', 'document', 'challenge', 'description'])
      const document = scheme.document
      if (
        !isObject(document) ||
        !SCHEME_TYPES.includes((document as { type?: unknown }).type as string)
      )
        fail(
          `${at}.document`,
          "must be an OpenAPI security scheme ({ type: 'http' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'mutualTLS', … })",
        )
      // What the default challenge quotes: HTTP tokens only, so the header can always be sent.
      const { scheme: word, in: place, name: key } = document as Record<string, unknown>
      const type = (document as { type: string }).type
      if (type === 'http' && (typeof word !== 'string' || !TOKEN.test(word)))
        fail(`${at}.document.scheme`, "must be an HTTP auth scheme such as 'bearer'")
      if (
        type === 'apiKey' &&
        (!['header', 'query', 'cookie'].includes(place as string) ||
          typeof key !== 'string' ||
          !TOKEN.test(key))
      )
        fail(
          `${at}.document`,
          "an apiKey document needs in ('header', 'query' or 'cookie') and name",
        )
      const challenge = scheme.challenge
      if (
        challenge !== undefined &&
        (typeof challenge !== 'string' || !/^[\x20-\x7e]+$/.test(challenge))
      )
        fail(`${at}.challenge`, 'must be a WWW-Authenticate challenge of printable ASCII')
      const doc = withDescription(structuredClone(document) as SecurityScheme, scheme.description)
      return {
        kind: 'custom',
        name,
        verify,
        challenge: (challenge as string | undefined) ?? defaultChallenge(doc),
        document: doc,
      }
    }
    default:
      return fail(
        `${at}.type`,
        "must be 'bearer', 'basic', 'apiKey' or 'custom' (an apiKey scheme may give { in, name, verify } alone)",
      )
  }
}

/**
 * Throws a TypeError unless `security` is a security requirement: an array of scheme names or of
 * arrays of them (each array non-empty), every name one of `schemes` when they are known.
 * @param where the option as errors name it, e.g. `handle(): security`
 */
export function checkSecurity(
  security: unknown,
  where: string,
  schemes?: ReadonlyMap<string, unknown> | ReadonlySet<string>,
): asserts security is SecurityRequirement | undefined {
  if (security === undefined) return
  const expected =
    "an array of scheme names, each alternative a name or an array of names that must all pass (e.g. ['bearer', ['apiKey', 'session']])"
  if (!Array.isArray(security)) fail(where, `must be ${expected}`)
  for (const item of security as unknown[]) {
    const names = Array.isArray(item) ? item : [item]
    if (names.length === 0 || !names.every((n) => typeof n === 'string' && n !== ''))
      fail(where, `must be ${expected}`)
    if (schemes === undefined) continue
    for (const n of names as string[])
      if (!schemes.has(n))
        throw optionError(
          'SG_ERR_UNKNOWN_NAME',
          `shapeguard: ${where}: ${JSON.stringify(n)} is not a scheme of auth (${[...schemes.keys()].join(', ') || 'none declared'})`,
        )
  }
}

/** A security requirement as OpenAPI writes it on an operation: one object per alternative. */
export function requirementObjects(security: SecurityRequirement): Record<string, string[]>[] {
  return security.map((item) =>
    Object.fromEntries((typeof item === 'string' ? [item] : item).map((n) => [n, []])),
  )
}
