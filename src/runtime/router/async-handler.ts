import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { asError } from '../core/app-error.js'
import { isThenable } from '../core/thenable.js'
import { overtaken } from '../lifecycle/overtake.js'
import { settledByStream } from '../stream/stream-error.js'

/**
 * Wraps an async handler so a rejection (or a synchronous throw) reaches the error middleware,
 * on Express 4 as on Express 5. Thrown values that are not errors (null, strings) still arrive as
 * an error, never as Express's `next('route')` or as "no error".
 * @example app.get('/users/:id', asyncHandler(async (req, res) => res.ok({ data: await find(req.params.id) })))
 */
export function asyncHandler<Req extends Request = Request, Res extends Response = Response>(
  fn: (req: Req, res: Res, next: NextFunction) => unknown,
): RequestHandler {
  return function asyncHandler(req, res, next) {
    try {
      const result = fn(req as Req, res as Res, next)
      // The closure is made only for an async handler, where the promise allocates anyway.
      if (isThenable(result)) result.then(undefined, (err) => forward(res, next, err))
    } catch (err) {
      forward(res, next, err)
    }
  }
}

// A stream's client that went (`StreamClosedError`), the error a stream already ended with, or
// anything after a timeout's answer needs no answer: the handler may simply let it through.
function forward(res: Response, next: NextFunction, err: unknown): void {
  if (!overtaken(res) && !settledByStream(res, err)) next(asError(err))
}
