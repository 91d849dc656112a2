import type { Request } from 'express'
import { contextOf, peekContext } from '../context/context.js'

/**
 * Whether the request carries a body on the wire: chunked, or a `Content-Length` that is not zero
 * (`0`, `00` and an empty value all count as none, as node's HTTP parser reads them). The one rule
 * for the content-type guard and the body step. Express 4's parser leaves `{}` on a request
 * without one; Express 5 leaves `undefined`: both count as a missing body.
 */
export function hasBodyOnWire(req: Request): boolean {
  const headers = req.headers
  if (headers['transfer-encoding'] !== undefined) return true
  const length = headers['content-length']
  return length !== undefined && length !== '0' && Number(length) !== 0
}

/** The body as the schema should see it: `undefined` when the client sent none. */
export function bodyInput(req: Request): unknown {
  const body = req.body
  if (body === undefined || body === null || typeof body !== 'object') return body
  if (hasBodyOnWire(req)) return body
  for (const _ in body) return body
  return Array.isArray(body) ? body : undefined
}

// Express 5 defines `req.query` as a getter on its request prototype, which parses the URL on each
// read; a guarded route's query must replace it. An own property would, but Express has changed
// every request's prototype, and V8 then makes a new hidden class for each property added to the
// request: microseconds per request. So the request prototype of the top app gets, once, a
// getter that answers the request's guarded query, kept in its context, and Express's own getter
// for a request that has none. Like Express's, it has no setter: an app's write fails as before.
const kQueryAccessor = Symbol.for('shapeguard.queryAccessor')

interface AppLike {
  readonly request?: object
  readonly parent?: AppLike
}

// The request prototype that holds the accessor: the top app's, which every mounted app's
// inherits, when the request has it in its chain (a test double does not).
function queryHome(req: Request): object | undefined {
  let app = (req as { app?: AppLike }).app
  // Bounded: a parent chain is as deep as the mounts, and never loops in a working app.
  for (let depth = 0; app?.parent !== undefined && depth < 64; depth++) app = app.parent
  const home = app?.request
  return home !== undefined && Object.prototype.isPrototypeOf.call(home, req) ? home : undefined
}

// The getter `home` inherits for `query` (Express 5's), or undefined when there is none.
function inheritedGetter(home: object): ((this: unknown) => unknown) | undefined {
  for (let o = Object.getPrototypeOf(home); o !== null; o = Object.getPrototypeOf(o)) {
    const descriptor = Object.getOwnPropertyDescriptor(o, 'query')
    if (descriptor !== undefined) return descriptor.get
  }
  return undefined
}

function installQueryAccessor(home: object, parse: (this: unknown) => unknown): void {
  Object.defineProperty(home, 'query', {
    configurable: true,
    enumerable: true,
    get(this: Request) {
      const guarded = this.res === undefined ? undefined : peekContext(this.res)?.query
      return guarded === undefined ? parse.call(this) : guarded
    },
  })
  Object.defineProperty(home, kQueryAccessor, { value: true })
}

/**
 * Makes `value` the request's `query`: Express 4's own property is written; on Express 5 it goes
 * to the request's context, which the getter above answers (an own property shadows the getter
 * where there is no app prototype to hold it, as on a test double).
 */
export function setQuery(req: Request, value: unknown): void {
  if (Object.hasOwn(req, 'query')) {
    ;(req as { query: unknown }).query = value
    return
  }
  const res = req.res
  if (res !== undefined) {
    if ((req as { [kQueryAccessor]?: true })[kQueryAccessor] !== true) {
      const home = queryHome(req)
      const parse = home === undefined ? undefined : inheritedGetter(home)
      if (parse !== undefined && !Object.hasOwn(home!, 'query')) installQueryAccessor(home!, parse)
    }
    contextOf(res).query = value
    // Read back: a getter of the app's own, nearer the request than ours, would not answer it.
    if (req.query === value) return
  }
  Object.defineProperty(req, 'query', {
    value,
    writable: true,
    configurable: true,
    enumerable: true,
  })
}

/**
 * A copy of a parsed request value with every string trimmed and/or lower-cased
 * (`validation.strings`). Depth is bounded by the guards (body) and the query parser (query).
 */
export function normaliseStrings(value: unknown, trim: boolean, lowercase: boolean): unknown {
  if (typeof value === 'string') {
    const t = trim ? value.trim() : value
    return lowercase ? t.toLowerCase() : t
  }
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map((v) => normaliseStrings(v, trim, lowercase))
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return value
  const out: Record<string, unknown> = proto === null ? Object.create(null) : {}
  for (const key of Object.keys(value)) {
    // The guards reject `__proto__` in bodies; never let an assignment reach the prototype.
    if (key === '__proto__') continue
    out[key] = normaliseStrings((value as Record<string, unknown>)[key], trim, lowercase)
  }
  return out
}
