import type { Request } from 'express'
import type { AppLog } from './app-log.js'
import { scopedLogger } from './logger.js'
import { currentScope, RequestScope } from './request-scope.js'
import type { Logger } from './types.js'

// Bound to its scope, not to the async context: a listener that lost the context still writes
// for the request.
const childOf = (scope: RequestScope): Logger => scopedLogger(() => scope)

/**
 * `req.log`: a logger bound to the request, made on first use. Its lines go to the backend of
 * the `shapeguard()` the request runs under, with its `requestId`; read where the asynchronous
 * context is lost (a listener of an emitter made elsewhere), to the backend of `home`, the app
 * whose request prototype holds the getter, else to the default backend.
 */
export function requestLog(req: Request, home?: AppLog): Logger {
  const scope = currentScope()
  if (scope?.req === req) {
    scope.child ??= childOf(scope)
    return scope.child
  }
  return childOf(new RequestScope(home, req))
}

/**
 * The `req.log` property: a getter costs a request nothing until read; a setter keeps it
 * assignable, as another request logger (pino-http) assigns it.
 */
export function requestLogProperty(home: AppLog | undefined): PropertyDescriptor {
  return {
    configurable: true,
    enumerable: false,
    get(this: Request) {
      return requestLog(this, home)
    },
    set(this: Request, value: unknown) {
      Object.defineProperty(this, 'log', {
        value,
        writable: true,
        configurable: true,
        enumerable: true,
      })
    },
  }
}

interface AppLike {
  readonly request?: object
  readonly parent?: AppLike
}

/**
 * Puts `req.log` on the request prototype of the top app `req` runs in (a mounted sub-app's
 * inherits it), once per app, bound to `home`, that app's logging; a request with no such
 * prototype (a test double) gets none.
 */
export function installRequestLog(req: Request, home: AppLog): void {
  let app = (req as { app?: AppLike }).app
  // Bounded: a parent chain is as deep as the mounts, and never loops in a working app.
  for (let depth = 0; app?.parent !== undefined && depth < 64; depth++) app = app.parent
  const proto = app?.request
  if (proto === undefined || Object.hasOwn(proto, 'log')) return
  if (Object.prototype.isPrototypeOf.call(proto, req)) {
    Object.defineProperty(proto, 'log', requestLogProperty(home))
  }
}
