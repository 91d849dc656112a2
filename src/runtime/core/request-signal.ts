import type { Request, Response } from 'express'
import { contextOf, peekContext } from './context.js'
import { StreamClosedError } from './stream-closed.js'

// `req.signal` on every request shapeguard guards: made on first read, so a handler that never
// reads it costs nothing. It aborts when the response closes (the client went, or the answer or
// stream ended: `StreamClosedError`), when the route's timeout passes, or when a shutdown's grace
// ends. An abort before the first read is kept as the context's `abortReason`.

function onClose(this: Response): void {
  abortRequest(this, new StreamClosedError())
}

/** The request's signal, made on first use. */
export function requestSignal(res: Response): AbortSignal {
  const context = contextOf(res)
  let controller = context.controller
  if (controller === undefined) {
    controller = new AbortController()
    context.controller = controller
    if (context.abortReason !== undefined) controller.abort(context.abortReason)
    else if (res.closed) controller.abort(new StreamClosedError())
    else res.once('close', onClose)
  }
  return controller.signal
}

/** Aborts the request's signal with `reason`, unless it is aborted already. */
export function abortRequest(res: Response, reason: unknown): void {
  const context = contextOf(res)
  if (context.abortReason !== undefined) return
  context.abortReason = reason
  context.controller?.abort(reason)
}

type SignalGetter = (this: Request) => AbortSignal | undefined

// Node 24 and later have a `signal` of their own on requests (aborted when the client goes); a
// request shapeguard did not guard keeps it.
function signalGetter(native: SignalGetter | undefined): SignalGetter {
  return function signal(this: Request) {
    const res = this.res
    if (res !== undefined && peekContext(res)?.config !== undefined) return requestSignal(res)
    return native?.call(this)
  }
}

const installed = new WeakSet<object>()

/** Puts the `signal` getter on `home` (a request prototype, or a request), once. */
export function installSignal(home: object): void {
  if (installed.has(home)) return
  installed.add(home)
  let native: SignalGetter | undefined
  for (let proto = home; proto !== null; proto = Object.getPrototypeOf(proto)) {
    const own = Object.getOwnPropertyDescriptor(proto, 'signal')
    if (own !== undefined) {
      native = own.get as SignalGetter | undefined
      break
    }
  }
  Object.defineProperty(home, 'signal', {
    get: signalGetter(native),
    // A handler or another library may still set its own.
    set(this: Request, value: unknown) {
      Object.defineProperty(this, 'signal', {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
      })
    },
    enumerable: false,
    configurable: true,
  })
}
