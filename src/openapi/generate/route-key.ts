import { optionError } from '../../shared/error-codes.js'
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

/**
 * Every path an Express path with optional parts matches, shortest first: OpenAPI has no optional
 * path segment, so `/files{/:name}` (Express 5) or `/files/:name?` (Express 4) is documented as
 * `/files` and `/files/{name}`. A bare `{name}` is a parameter, not a group. At most 16 paths.
 * @example expandOptional('/files{/:name}') // → ['/files', '/files/:name']
 */
export function expandOptional(path: string): string[] {
  const both = (without: string, withIt: string) =>
    [...expandOptional(without), ...expandOptional(withIt)].slice(0, 16)
  for (const group of path.matchAll(/\{([^{}]*)\}/g)) {
    const inner = group[1]!
    if (!inner.includes('/') && !inner.includes(':')) continue
    const before = path.slice(0, group.index)
    const after = path.slice(group.index + group[0].length)
    return both(before + after, before + inner + after)
  }
  const segments = path.split('/')
  const at = segments.findIndex((s) => s.startsWith(':') && s.endsWith('?'))
  if (at === -1) return [path]
  const kept = segments.map((s, i) => (i === at ? s.slice(0, -1) : s))
  return both(segments.filter((_, i) => i !== at).join('/') || '/', kept.join('/'))
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
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: generateOpenAPI(): routes key ${JSON.stringify(key)} must be "<METHOD> /path" with an HTTP method`,
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
 * The stable operationId of a route: the method, then each path segment capitalised (parameters
 * by their name), camel-cased where a segment is not an identifier; `Root` for `/`.
 * @example operationIdOf('post', '/user-profiles/{id}') // → 'postUserProfilesId'
 */
export function operationIdOf(method: Method, path: string): string {
  const parts = path
    .split('/')
    .map((s) => identifierPart(s.replace(/^\{(.*)\}$/, '$1')))
    .join('')
  return method + (parts === '' ? 'Root' : parts)
}
