import type { Request } from 'express'
import { contextOf, peekContext } from './context.js'

// `req.id` and Express 5's guarded `req.query` without a property added to each request. Express
// changes every request's prototype (Object.setPrototypeOf), and V8 then makes a new hidden class
// for each property later added to that object: about 3 µs a property, per request. So the value
// is kept in the request's context, and Express's own request object (`express.request`, which
// the request prototype of every app made by that copy of Express inherits, whether mounted with
// app.use, called from another app's middleware or mounted twice) gets, once, an accessor that
// answers it. A request with no such object in its chain (a test double) gets an own property.

/** The fields kept this way, each a field of the request context. */
type Field = 'id' | 'query'

// Symbol.for: the ESM and CJS copies of the package find each other's accessors.
const marks: Record<Field, symbol> = {
  id: Symbol.for('shapeguard.idAccessor'),
  query: Symbol.for('shapeguard.queryAccessor'),
}

const fields: readonly Field[] = ['id', 'query']

// Express's request object (4 and 5): the one in the request's chain that owns the `path` getter.
// Bounded: a request's chain is a handful of objects.
function expressRequest(req: Request): object | undefined {
  let o: object | null = Object.getPrototypeOf(req)
  for (let depth = 0; o !== null && depth < 16; depth++, o = Object.getPrototypeOf(o)) {
    if (Object.getOwnPropertyDescriptor(o, 'path')?.get !== undefined) return o
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

function install(base: object, field: Field): void {
  const own = Object.getOwnPropertyDescriptor(base, field)
  if (field === 'query') {
    // Express 5's getter parses the URL: it still answers a request without a guarded query.
    // Like it, no setter: a write fails in every Express 5 app of the process, before and after
    // this is installed. Express 4 has no getter (its query is an own property of each request):
    // nothing to install.
    const parse = own?.get
    if (parse === undefined) return
    Object.defineProperty(base, 'query', {
      configurable: true,
      enumerable: true,
      get(this: Request) {
        const guarded = contextField(this, 'query')
        return guarded === undefined ? parse.call(this) : guarded
      },
    })
  } else {
    if (own !== undefined) return // Express's own `id`, were there one: left alone
    Object.defineProperty(base, 'id', {
      configurable: true,
      enumerable: true,
      get(this: Request) {
        return contextField(this, 'id')
      },
      // A write (another request-ID middleware) is kept as shapeguard's own value is; a request
      // without a response (none in Express) gets an own property.
      set(this: Request, value: unknown) {
        if (this.res === undefined) ownProperty(this, 'id', value)
        else contextOf(this.res).id = value
      },
    })
  }
  Object.defineProperty(base, marks[field], { value: true })
}

/**
 * Makes `value` the request's `req.id` or `req.query`: kept in its context and answered by the
 * accessor on Express's request object; written as an own property where the request has one
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
      // Both at once: from the first request on, `req.query` and `req.id` behave the same way.
      const base = expressRequest(req)
      if (base !== undefined)
        for (const f of fields) if (!Object.hasOwn(base, marks[f])) install(base, f)
    }
    contextOf(res)[field] = value
    // Read back: an accessor of the app's own, nearer the request than ours, would not answer it.
    if (req[field] === value) return
  }
  ownProperty(req, field, value)
}
