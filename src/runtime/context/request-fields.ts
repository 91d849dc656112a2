import type { Request } from 'express'
import { contextOf, peekContext } from './context.js'

// `req.id` and Express 5's guarded `req.query` without a property added to each request. Express
// changes every request's prototype (Object.setPrototypeOf), and V8 then makes a new hidden class
// for each property later added to that object: about 3 µs a property, per request. So the value
// is kept in the request's context, and the top app's request prototype gets, once, an accessor
// that answers it. A request with no such prototype (a test double) gets an own property.

/** The fields kept this way, each a field of the request context. */
type Field = 'id' | 'query'

interface AppLike {
  readonly request?: object
  readonly parent?: AppLike
}

// Symbol.for: the ESM and CJS copies of the package find each other's accessors.
const marks: Record<Field, symbol> = {
  id: Symbol.for('shapeguard.idAccessor'),
  query: Symbol.for('shapeguard.queryAccessor'),
}

// The request prototype of the top app, which every mounted app's inherits, when the request has
// it in its chain.
function requestHome(req: Request): object | undefined {
  let app = (req as { app?: AppLike }).app
  // Bounded: a parent chain is as deep as the mounts, and never loops in a working app.
  for (let depth = 0; app?.parent !== undefined && depth < 64; depth++) app = app.parent
  const home = app?.request
  return home !== undefined && Object.prototype.isPrototypeOf.call(home, req) ? home : undefined
}

// The getter `home` inherits for `name` (Express 5's `query`), or undefined.
function inheritedGetter(home: object, name: string): ((this: unknown) => unknown) | undefined {
  for (let o = Object.getPrototypeOf(home); o !== null; o = Object.getPrototypeOf(o)) {
    const descriptor = Object.getOwnPropertyDescriptor(o, name)
    if (descriptor !== undefined) return descriptor.get
  }
  return undefined
}

function contextField(req: Request, field: Field): unknown {
  const res = req.res
  return res === undefined ? undefined : peekContext(res)?.[field]
}

function ownProperty(req: Request, name: string, value: unknown): void {
  Object.defineProperty(req, name, { value, writable: true, configurable: true, enumerable: true })
}

function install(home: object, field: Field): void {
  if (Object.hasOwn(home, field)) return // the app's own: left alone
  if (field === 'query') {
    // Express 5's getter answers a request without a guarded query; like it, no setter, so an
    // app's write fails as before. Express 4's query is an own property: nothing to install.
    const parse = inheritedGetter(home, 'query')
    if (parse === undefined) return
    Object.defineProperty(home, 'query', {
      configurable: true,
      enumerable: true,
      get(this: Request) {
        const guarded = contextField(this, 'query')
        return guarded === undefined ? parse.call(this) : guarded
      },
    })
  } else {
    Object.defineProperty(home, 'id', {
      configurable: true,
      enumerable: true,
      get(this: Request) {
        return contextField(this, 'id')
      },
      // A write (another request-ID middleware, the app) is kept as shapeguard's own is.
      set(this: Request, value: unknown) {
        if (this.res === undefined) ownProperty(this, 'id', value)
        else contextOf(this.res).id = value
      },
    })
  }
  Object.defineProperty(home, marks[field], { value: true })
}

/**
 * Makes `value` the request's `req.id` or `req.query`: kept in its context and answered by the
 * accessor on its app's request prototype; written as an own property where the request has one
 * (Express 4's query) or where no accessor can answer it (a test double, an app's own getter).
 */
export function setRequestField(req: Request, field: Field, value: unknown): void {
  if (Object.hasOwn(req, field)) {
    ;(req as unknown as Record<Field, unknown>)[field] = value
    return
  }
  const res = req.res
  if (res !== undefined) {
    if ((req as unknown as Record<symbol, unknown>)[marks[field]] !== true) {
      const home = requestHome(req)
      if (home !== undefined) install(home, field)
    }
    contextOf(res)[field] = value
    // Read back: an accessor of the app's own, nearer the request than ours, would not answer it.
    if (req[field] === value) return
  }
  ownProperty(req, field, value)
}
