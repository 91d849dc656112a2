/** The HTTP methods an OpenAPI path item documents. */
export const methods = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
] as const

/** One of {@link methods}. */
export type Method = (typeof methods)[number]

const methodSet: ReadonlySet<string> = new Set(methods)

/** A route key taken apart: the lower-case method and the OpenAPI path (`{param}`, no trailing slash). */
export interface RouteKey {
  readonly method: Method
  readonly path: string
  /** The path without `prefix`, which the operationId is derived from (stable when the prefix changes). */
  readonly ownPath: string
  /** The names of the path's parameters, in order. */
  readonly params: readonly string[]
}

/**
 * A path in `:param` syntax as OpenAPI writes it: `{param}`, one leading slash, no trailing slash
 * (the root stays `/`), repeated slashes merged; `prefix` goes in front. Express's optional (`:id?`)
 * and pattern (`:id(\\d+)`) suffixes are dropped from the name.
 * @example openApiPath('/users/:id/', '/v1') // → { path: '/v1/users/{id}', params: ['id'] }
 */
export function openApiPath(path: string, prefix = ''): { path: string; params: string[] } {
  const params: string[] = []
  const segments = `${prefix}/${path}`
    .split('/')
    .filter((s) => s !== '')
    .map((segment) =>
      segment.replace(/[:{]([A-Za-z_$][\w$]*)(?:\([^)]*\))?[?*+]?\}?/g, (_, name: string) => {
        params.push(name)
        return `{${name}}`
      }),
    )
  return { path: `/${segments.join('/')}`, params }
}

// An Express 5 optional group (`{/:id}`, `{.:ext}`); a bare `{name}` is a parameter instead.
const optionalGroup = /\{([^{}]*[/:][^{}]*)\}/
// An Express 4 optional parameter segment (`/:id?`, `/:id(\\d+)?`).
const optionalParam = /\/:([A-Za-z_$][\w$]*)(\([^)]*\))?\?/

/**
 * Every path an Express path with optional parts matches, shortest first: OpenAPI has no optional
 * path segment, so `/files{/:name}` (Express 5) or `/files/:name?` (Express 4) is documented as
 * `/files` and `/files/{name}`. At most 16 paths.
 * @example expandOptional('/files{/:name}') // → ['/files', '/files/:name']
 */
export function expandOptional(path: string): string[] {
  const group = optionalGroup.exec(path)
  const param = group === null ? optionalParam.exec(path) : null
  const found = group ?? param
  if (found === null) return [path]
  const before = path.slice(0, found.index)
  const after = path.slice(found.index + found[0].length)
  const kept = group !== null ? group[1]! : found[0].slice(0, -1)
  return [...expandOptional(before + after), ...expandOptional(before + kept + after)].slice(0, 16)
}

/**
 * Parses `<METHOD> <path>` (method in any case) into one key per path it matches (see
 * {@link expandOptional}); throws a TypeError naming the key otherwise.
 * @example parseRouteKeys('post /users/:id', '') // → [{ method: 'post', path: '/users/{id}', ownPath: '/users/{id}', params: ['id'] }]
 */
export function parseRouteKeys(key: string, prefix: string): RouteKey[] {
  const match = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(key)
  const method = match?.[1]?.toLowerCase()
  if (match === null || method === undefined || !methodSet.has(method)) {
    throw new TypeError(
      `shapeguard: generateOpenAPI routes key ${JSON.stringify(key)} must be "<METHOD> /path" with an HTTP method`,
    )
  }
  return expandOptional(match[2]!).map((own) => {
    const { path, params } = openApiPath(own, prefix)
    return { method: method as Method, path, ownPath: openApiPath(own).path, params }
  })
}

/** A segment as identifier text: camel-cased at every character that is not a letter or digit. */
function identifierPart(segment: string): string {
  return segment
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')
}

/**
 * The stable operationId of SPEC 4.7 and API.md 21: the method, then each path segment
 * capitalised (parameters by their name), camel-cased where a segment is not an identifier;
 * `Root` for `/`.
 * @example operationIdOf('post', '/user-profiles/{id}') // → 'postUserProfilesId'
 */
export function operationIdOf(method: Method, path: string): string {
  const parts = path
    .split('/')
    .map((s) => identifierPart(s.replace(/^\{(.*)\}$/, '$1')))
    .join('')
  return method + (parts === '' ? 'Root' : parts)
}
