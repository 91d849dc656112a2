import type { RequestHandler } from 'express'
import { AppError } from './app-error.js'

/** Options of `notFoundHandler()`. */
export interface NotFoundHandlerOptions {
  /** A fixed message instead of `Cannot <METHOD> <path>`. */
  message?: string
}

/**
 * Answers every request that reached it with 404 NOT_FOUND; mount after your routes and before
 * `errorHandler()`.
 * @param options default `{}`
 * @example app.use(notFoundHandler(), errorHandler())
 */
export function notFoundHandler(options: NotFoundHandlerOptions = {}): RequestHandler {
  const fixed = options.message
  return function notFoundHandler(req, _res, next) {
    const url = req.originalUrl ?? req.url ?? '/'
    const query = url.indexOf('?')
    const path = query === -1 ? url : url.slice(0, query)
    next(new AppError('NOT_FOUND', fixed ?? `Cannot ${req.method} ${path}`, 404))
  }
}
