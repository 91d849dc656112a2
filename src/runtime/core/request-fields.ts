import type { Request } from 'express'

// `req.id` and a guarded `req.query` are own properties of the request. Adding them is cheap: on
// V8 13+ (Node 24, 26) requests share their hidden classes, so an added property follows a shared
// transition; on V8 12 `useDictionaryMode` (dictionary-mode.ts), the first step of shapeguard()
// and of a guarded route without it, put the request in dictionary mode first.

/**
 * Makes `value` the request's `req.id` or `req.query`: written where the request has a writable
 * own property (Express 4's query, an ID set before), else defined as one. The query is then read
 * only, as Express 5's getter without a setter is; the ID stays writable for another request-ID
 * middleware. An own property also wins over an app's or sub-app's own `query` getter.
 */
export function setRequestField(req: Request, field: 'id' | 'query', value: unknown): void {
  // The common case, an ID on a request nothing gave one: a plain store, which V8 caches (a
  // defineProperty call costs more per request over HTTP: bench/http.bench.ts).
  if (field === 'id' && !('id' in req)) {
    ;(req as { id?: unknown }).id = value
    return
  }
  if (Object.hasOwn(req, field) && Reflect.set(req, field, value)) return
  Object.defineProperty(req, field, {
    value,
    writable: field === 'id',
    enumerable: true,
    configurable: true,
  })
}
