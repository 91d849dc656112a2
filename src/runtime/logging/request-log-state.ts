import type { Request, Response } from 'express'
import type { RequestLog } from '../core/context.js'

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

function countSegments(path: string): number {
  let count = 0
  for (let i = 0; i < path.length; i++) {
    if (path.charCodeAt(i) === 47 /* / */ && i + 1 < path.length && path.charCodeAt(i + 1) !== 47) {
      count++
    }
  }
  return path.length > 0 && path.charCodeAt(0) !== 47 ? count + 1 : count
}

interface RouteInfo {
  readonly pattern: string
  /** Segments of the pattern, or -1 when it cannot be counted (wildcard, optional, RegExp). */
  readonly segments: number
}

// Express keeps one route object per route: what is learnt from its pattern is learnt once.
const routes = new WeakMap<object, RouteInfo>()

function routeInfo(route: { path?: unknown }): RouteInfo {
  let info = routes.get(route)
  if (info === undefined) {
    const pattern = String(route.path)
    const plain = typeof route.path === 'string' && !/[*?(){}]/.test(pattern)
    info = { pattern, segments: plain ? countSegments(pattern) : -1 }
    routes.set(route, info)
  }
  return info
}

/**
 * The route pattern (`/users/:id`) with its mount path; the concrete path when no route matched.
 * An error forwarded out of a mounted router reaches 'finish' after Express restored
 * `req.baseUrl`; the missing mount prefix is then taken from the concrete path, when the pattern
 * is plain enough (no wildcard, optional part or RegExp) to count its segments.
 */
export function endpointOf(req: Request): string {
  const route = (req as { route?: { path?: unknown } }).route
  if (route === undefined || route === null || route.path === undefined) return pathOf(req)
  const { pattern, segments } = routeInfo(route)
  let base = req.baseUrl ?? ''
  if (base === '' && segments !== -1) {
    const path = pathOf(req)
    const missing = countSegments(path) - segments
    if (missing > 0) {
      base = `/${path
        .split('/')
        .filter((s) => s !== '')
        .slice(0, missing)
        .join('/')}`
    }
  }
  return base !== '' && pattern === '/' ? base : base + pattern
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
