import type { Request, Response } from 'express'
import { optionError } from '../../shared/error-codes.js'
import type { ResolvedConfig } from '../core/config.js'
import { contextOf, peekContext, type RouteShape } from '../core/context.js'
import { installSignal } from '../core/request-signal.js'
import { appPrototype } from '../host/app-prototype.js'
import { routePatternOf } from '../host/route-pattern.js'
import { endpointOf } from '../logging/request-log-state.js'
import { resolveLogger } from '../logging/resolve-logger.js'
import { traceError } from '../telemetry/spans.js'
import { errorBody, withStatus } from './error-body.js'
import { sendFallback } from './error-fallback.js'
import { ownJson, sendJson } from './send-json.js'
import { ndjson, sse } from './stream-helpers.js'
import { isPending } from './strip-response.js'
import type {
  CreatedOptions,
  CursorPaginatedOptions,
  FailOptions,
  OkOptions,
  PaginatedOptions,
  ResponseHelpers,
} from './types.js'
import { warnMissingSchema } from './warn-missing-schema.js'
import { withoutShapeguard } from './without-shapeguard.js'

// The helpers read their response from `this`: the same seven functions serve every response.
// They live on the app's response prototype, put there once, so a request pays nothing for them.

// The configuration shapeguard() (or a guarded route) gave this response. A response it never
// saw, such as one of a route mounted before app.use(shapeguard()), has none: the helper then
// fails as it did before the helpers were on the prototype, with an error naming the fix.
function configFor(res: Response, helper: string): ResolvedConfig {
  const config = peekContext(res)?.config
  if (config === undefined)
    throw withoutShapeguard(`res.${helper}() was called without shapeguard()`)
  return config
}

function ok(this: Response, options?: OkOptions): Promise<void> | undefined {
  const config = configFor(this, 'ok')
  const status = options?.status ?? config.response.statusCodes[this.req?.method]
  return sendSuccess(this, config, status ?? 200, options?.data, options?.message)
}

function created(this: Response, options?: CreatedOptions): Promise<void> | undefined {
  return sendSuccess(this, configFor(this, 'created'), 201, options?.data, options?.message)
}

function accepted(this: Response, options?: CreatedOptions): Promise<void> | undefined {
  return sendSuccess(this, configFor(this, 'accepted'), 202, options?.data, options?.message)
}

function noContent(this: Response): void {
  configFor(this, 'noContent')
  this.status(204).end()
}

function paginated(this: Response, options: PaginatedOptions): Promise<void> | undefined {
  const { data, total, page, limit } = options
  const pages = limit > 0 ? Math.ceil(total / limit) : 0
  const body = Object.freeze({ items: data, total, page, limit, pages })
  return sendSuccess(this, configFor(this, 'paginated'), 200, body, options.message)
}

function cursorPaginated(
  this: Response,
  options: CursorPaginatedOptions,
): Promise<void> | undefined {
  const page = {
    items: options.data,
    nextCursor: options.nextCursor ?? null,
    prevCursor: options.prevCursor ?? null,
    hasMore: options.hasMore,
    ...(options.total === undefined ? {} : { total: options.total }),
  }
  return sendSuccess(
    this,
    configFor(this, 'cursorPaginated'),
    200,
    Object.freeze(page),
    options.message,
  )
}

function fail(this: Response, options: FailOptions): void {
  const config = configFor(this, 'fail')
  const { code, message } = options
  const status = failStatus(options.status)
  // The request log line of a `fail` answer carries its code and message, as an error's does.
  const log = peekContext(this)?.log
  if (log !== undefined) log.error = { code, message }
  traceError(status, code, code)
  const body = errorBody(this, config, { code, status, message, details: options.details ?? null })
  send(withStatus(this, status), body)
}

// An error answer's status, as errorHandler answers them: a 200 or a 302 would carry an error
// body, a 204 or a 304 would drop it. A string ('404') is refused, not read as a number: the
// types say number, and a status read from elsewhere should be converted where it is read.
function failStatus(status: unknown): number {
  if (status === undefined) return 400
  if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599)
    return status
  throw optionError(
    'SG_ERR_INVALID_OPTION',
    `shapeguard: res.fail(): status must be a number from 400 to 599${typeof status === 'string' ? ' (a number, not a string)' : ''}, e.g. 404; answer other statuses with res.ok(), res.status() or res.redirect()`,
  )
}

// The body as res.json would send it: through res.json where the app's settings or a wrapper
// need it, else written here (the same bytes and headers, less work).
function send(res: Response, body: unknown): void {
  const text = ownJson(res) ? JSON.stringify(body) : undefined
  if (text === undefined) res.json(body)
  else sendJson(res, text)
}

// Undefined once the answer is sent; with an asynchronous response schema, a promise that
// settles (never rejects) once it is sent, or once it is known it never will be.
function sendSuccess(
  res: Response,
  config: ResolvedConfig,
  status: number,
  given: unknown,
  message = '',
): Promise<void> | undefined {
  const context = peekContext(res)
  const stripper = context?.stripper
  const route = context?.shape
  if (stripper === undefined && config.warnings.missingResponseSchema) warnMissingSchema(res, given)
  // The response schema's writer strips and serialises in one walk where it can answer (the
  // default or renamed envelope, or raw data); otherwise the data is stripped, then stringified.
  if (stripper?.json !== undefined && (route === undefined || route.raw) && ownJson(res)) {
    const text =
      route === undefined
        ? config.response.shape.successJson(stripper.json, given ?? null, message)
        : stripper.json(given ?? null, '')
    if (text !== undefined) {
      sendJson(res.status(status), text)
      return undefined
    }
  }
  const data = stripper === undefined ? (given ?? null) : stripper(given ?? null)
  if (!isPending(data)) {
    sendData(res, config, status, data, message, route)
    return undefined
  }
  // An asynchronous response schema: the answer goes out once the data is stripped. A failure
  // goes where a synchronous one would have: to the error middleware, through the route's next.
  // If the route answered meanwhile (it threw, or called next()), that answer stands: nothing
  // more is sent, nothing goes to next, and the developer is told once.
  const next = context?.next
  const tooLate = answeredFirst(res, stripper!)
  return data.then(
    (stripped) => {
      if (answered(res)) tooLate()
      else {
        try {
          sendData(res, config, status, stripped, message, route)
        } catch (err) {
          forward(res, config, next, err)
        }
      }
    },
    (err: unknown) => {
      if (answered(res)) tooLate()
      else forward(res, config, next, err)
    },
  )
}

function answered(res: Response): boolean {
  return res.headersSent || res.writableEnded
}

function forward(
  res: Response,
  config: ResolvedConfig,
  next: ((err: unknown) => void) | undefined,
  err: unknown,
): void {
  try {
    if (next === undefined) sendFallback(res, config.errors)
    else next(err)
  } catch {
    sendFallback(res, config.errors)
  }
}

// One warning per route (its response stripper): a busy route must not flood the log.
const answeredEarly = new WeakSet<object>()

// The warning for a route that answers before its asynchronous response schema finished. The
// route is read now, while the request is in it, as registered (`/orgs/:org/items`): never a
// request value, not even the mount path as the client spelled it; nor any of the data.
function answeredFirst(res: Response, route: object): () => void {
  const req = res.req
  const method = req?.method
  const pattern = req === undefined ? undefined : routePatternOf(req)
  const where = `${method === undefined ? '' : `${method} `}${pattern ?? 'a use() path'}`
  return () => {
    if (answeredEarly.has(route)) return
    answeredEarly.add(route)
    try {
      resolveLogger(undefined).warn(
        { method, endpoint: pattern },
        `shapeguard: ${where} answered before its asynchronous response schema finished: the data was not sent; await the helper (await res.ok(…)) before anything else answers`,
      )
    } catch {
      // A logger that throws loses the warning, never the process (this runs after the request).
    }
  }
}

// The (stripped) data in the app's or the route's envelope.
function sendData(
  res: Response,
  config: ResolvedConfig,
  status: number,
  data: unknown,
  message: string,
  route: RouteShape | undefined,
): void {
  let body: unknown
  if (route === undefined) body = config.response.shape.success(data, message)
  else if (route.raw) body = data
  // Production never warns: a shared no-op, no closure per response.
  else if (!config.debug) body = route.build(data, message, ignoreMissing)
  else body = route.build(data, message, (token) => warnMissing(res, route, token))
  send(res.status(status), body)
}

function ignoreMissing(): void {}

// One warning per route shape and token: a busy route must not flood the log.
const warned = new WeakMap<RouteShape, Set<string>>()

function warnMissing(res: Response, route: RouteShape, token: string): void {
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
  sse,
  ndjson,
})

/**
 * Gives a response its configuration, and the helpers: once on its top app's response prototype,
 * so a request pays nothing for them, or on the response itself when it has none (a test double).
 */
export function installHelpers(res: Response, config: ResolvedConfig): void {
  contextOf(res).config = config
  if (res.fail === fail) return
  const app = (res as { app?: unknown }).app
  Object.assign(appPrototype(res, app, 'response'), responseHelpers)
  // `req.signal`, on the same app's request prototype.
  const req = res.req as Request | undefined
  if (req !== undefined) installSignal(appPrototype(req, app, 'request'))
}
