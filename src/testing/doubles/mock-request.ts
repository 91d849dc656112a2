import { parse } from 'node:querystring'
import type { Request } from 'express'
import { requestLogProperty } from '../../runtime/logging/child-logger.js'
import { checkOptionalOptions as checkOptions } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'

/** What `mockRequest()` can be given; everything is optional. */
export interface MockRequestOptions {
  /** The HTTP method (upper-cased). @default 'GET' */
  method?: string
  /** Path and query string. @default '/' */
  url?: string
  /** The path, as `req.path` reads it: an alias of `url` (which must then agree with it). */
  path?: string
  /** `req.body`, as a body parser would leave it. */
  body?: unknown
  /** `req.params`. @default {} */
  params?: Record<string, string>
  /** `req.query`. @default parsed from `url` as Express 5 does (a repeated key gives an array) */
  query?: Record<string, unknown>
  /** Header names are matched case-insensitively, as on a real request. @default {} */
  headers?: Record<string, string | string[] | undefined>
  /** Client address, also `socket.remoteAddress`. @default '127.0.0.1' */
  ip?: string
  /** The request ID (`req.id`). @default '' */
  id?: string
  /** `req.app.locals`, where shapeguard() leaves its configuration. @default {} */
  locals?: Record<string, unknown>
}

const known = ['method', 'url', 'path', 'body', 'params', 'query', 'headers', 'ip', 'id', 'locals']

/** The URL of the request: `url`, else `path`; given both, `path` must be `url`'s path. */
function urlOf({ url, path }: MockRequestOptions): string {
  if (url !== undefined && typeof url !== 'string')
    throw optionError('SG_ERR_INVALID_OPTION', 'shapeguard: mockRequest(): url must be a string')
  if (path !== undefined && typeof path !== 'string')
    throw optionError('SG_ERR_INVALID_OPTION', 'shapeguard: mockRequest(): path must be a string')
  if (url === undefined) return path ?? '/'
  if (path !== undefined && path !== url && path !== url.split('?')[0])
    throw optionError(
      'SG_ERR_OPTION_CONFLICT',
      `shapeguard: mockRequest(): path ${JSON.stringify(path)} is not the path of url ${JSON.stringify(url)}, give one of them`,
    )
  return url
}

/**
 * A request double for unit-testing handlers and middleware without a server.
 * @param options default `{}`
 * @example const req = mockRequest({ method: 'POST', body: { name: 'Ada' }, headers: { 'X-Api-Key': 'k' } })
 */
export function mockRequest(options: MockRequestOptions = {}): Request {
  checkOptions(options, known, 'mockRequest()')
  const url = urlOf(options)
  const query = url.indexOf('?')
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value
  }
  const ip = options.ip ?? '127.0.0.1'
  const get = (name: string) => {
    const key = name.toLowerCase()
    return headers[key === 'referrer' ? 'referer' : key]
  }
  const req = {
    method: (options.method ?? 'GET').toUpperCase(),
    url,
    originalUrl: url,
    baseUrl: '',
    path: query === -1 ? url : url.slice(0, query),
    body: options.body,
    params: options.params ?? {},
    query: options.query ?? (query === -1 ? {} : { ...parse(url.slice(query + 1)) }),
    headers,
    id: options.id ?? '',
    ip,
    ips: [],
    socket: { remoteAddress: ip },
    app: { locals: options.locals ?? {} },
    get,
    header: get,
  } as unknown as Request
  // As on a real request: a logger bound to it, writing with its `requestId`, and assignable.
  Object.defineProperty(req, 'log', requestLogProperty(undefined))
  return req
}
