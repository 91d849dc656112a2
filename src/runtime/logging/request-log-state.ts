import type { Request, Response } from 'express'
import type { RequestLog } from '../core/context.js'
import { routePatternOf } from '../host/route-pattern.js'

type Json = Response['json']

/**
 * Per-request state of the request logger, stored at `res[kRequestLog]`: the slot the error
 * middleware fills, plus the start time and the captured response body. Every field is assigned
 * in the constructor so all instances share one shape.
 */
export class RequestLogState implements RequestLog {
  error: unknown
  cause: unknown
  readonly req: Request
  readonly start: number
  readonly span: object | undefined
  resBody: unknown
  json: Json | undefined

  constructor(req: Request, start: number, span: object | undefined) {
    this.error = undefined
    this.cause = undefined
    this.req = req
    this.start = start
    this.span = span
    this.resBody = undefined
    this.json = undefined
  }
}

/** The request path without its query string (a query may carry tokens). */
export function pathOf(req: Request): string {
  const url = req.originalUrl ?? req.url ?? ''
  const q = url.indexOf('?')
  return q === -1 ? url : url.slice(0, q)
}

/**
 * The route the request matched, as registered (`/invite/:token/accept`): mount paths included,
 * whatever the client's spelling (case, trailing slash) and parameter values, so no value of the
 * path reaches a log line. Undefined when no route matched (a 404, a `use()` middleware's answer):
 * the concrete path could carry a token.
 */
export function endpointOf(req: Request): string | undefined {
  return routePatternOf(req)
}

/** The request ID, or '' when request IDs are disabled. */
export function requestIdOf(req: Request): string {
  const id = (req as { id?: unknown }).id
  return typeof id === 'string' ? id : ''
}

/** `req.ip` (the host's trust-proxy setting decides), else the socket address. */
export function clientIpOf(req: Request): string {
  return req.ip ?? req.socket?.remoteAddress ?? ''
}
