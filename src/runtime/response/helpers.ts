import type { Response } from 'express'
import type { ResolvedConfig } from '../config/resolve-config.js'
import { contextOf, peekContext } from '../context/context.js'
import { endpointOf } from '../logging/request-log-state.js'
import { resolveLogger } from '../logging/resolve-logger.js'
import { defaultShape } from './envelope.js'
import type { RouteShape } from './route-shape.js'
import type {
  CreatedOptions,
  CursorPaginatedOptions,
  FailOptions,
  OkOptions,
  PaginatedOptions,
  ResponseHelpers,
} from './types.js'

// The helpers read their response from `this`: the same seven functions serve every response,
// so installing them costs seven property writes per request and no closure.

function ok(this: Response, options?: OkOptions): void {
  const status =
    options?.status ?? peekContext(this)?.config?.response.statusCodes[this.req?.method]
  sendSuccess(this, status ?? 200, options?.data, options?.message)
}

function created(this: Response, options?: CreatedOptions): void {
  sendSuccess(this, 201, options?.data, options?.message)
}

function accepted(this: Response, options?: CreatedOptions): void {
  sendSuccess(this, 202, options?.data, options?.message)
}

function noContent(this: Response): void {
  this.status(204).end()
}

function paginated(this: Response, options: PaginatedOptions): void {
  const { data, total, page, limit } = options
  const pages = limit > 0 ? Math.ceil(total / limit) : 0
  sendSuccess(this, 200, Object.freeze({ items: data, total, page, limit, pages }), options.message)
}

function cursorPaginated(this: Response, options: CursorPaginatedOptions): void {
  const page = {
    items: options.data,
    nextCursor: options.nextCursor ?? null,
    prevCursor: options.prevCursor ?? null,
    hasMore: options.hasMore,
    ...(options.total === undefined ? {} : { total: options.total }),
  }
  sendSuccess(this, 200, Object.freeze(page), options.message)
}

function fail(this: Response, options: FailOptions): void {
  const context = peekContext(this)
  const shape = context?.config?.response.shape ?? defaultShape
  const body = shape.error(options.code, options.message, options.details ?? null)
  // The request log line of a `fail` answer carries its code and message, as an error's does.
  const log = context?.log
  if (log !== undefined) log.error = { code: options.code, message: options.message }
  this.status(options.status ?? 400).json(body)
}

function sendSuccess(res: Response, status: number, given: unknown, message = ''): void {
  const context = peekContext(res)
  const prepare = context?.prepare
  const data = prepare === undefined ? (given ?? null) : prepare(given ?? null)
  const route = context?.shape
  const config = context?.config
  let body: unknown
  if (route === undefined) body = (config?.response.shape ?? defaultShape).success(data, message)
  else if (route.raw) body = data
  // Production never warns: a shared no-op, no closure per response.
  else if (config !== undefined && !config.debug) body = route.build(data, message, ignoreMissing)
  else body = route.build(data, message, (token) => warnMissing(res, route, token, config))
  res.status(status).json(body)
}

function ignoreMissing(): void {}

// One warning per route shape and token: a busy route must not flood the log.
const warned = new WeakMap<RouteShape, Set<string>>()

function warnMissing(
  res: Response,
  route: RouteShape,
  token: string,
  config: ResolvedConfig | undefined,
): void {
  if (config !== undefined && !config.debug) return
  let seen = warned.get(route)
  if (seen === undefined) {
    seen = new Set()
    warned.set(route, seen)
  }
  if (seen.has(token)) return
  seen.add(token)
  // The route pattern, not the URL: a query string carries request values.
  const req = res.req
  resolveLogger(undefined).warn(
    {
      missing: token,
      method: req?.method,
      endpoint: req === undefined ? undefined : endpointOf(req),
    },
    `withShape: ${token} resolved to nothing`,
  )
}

/** The response helpers, installed on each response by `shapeguard()` and by `mockResponse()`. */
export const responseHelpers: Readonly<ResponseHelpers> = Object.freeze({
  ok,
  created,
  accepted,
  noContent,
  paginated,
  cursorPaginated,
  fail,
})

/** Puts the helpers and the configuration on one response. */
export function installHelpers(res: Response, config: ResolvedConfig): void {
  contextOf(res).config = config
  res.ok = ok
  res.created = created
  res.accepted = accepted
  res.noContent = noContent
  res.paginated = paginated
  res.cursorPaginated = cursorPaginated
  res.fail = fail
}
