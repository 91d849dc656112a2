import type { Request, Response } from 'express'
import type { AppError } from './app-error.js'
import { pathOf } from './logging/request-log-state.js'
import { kRequestLog, type Logger, type RequestLogSlot } from './logging/types.js'

/**
 * One log line per error: when the request logger watches this response, the error is handed to
 * it through `res[kRequestLog]` and goes on that request's line; otherwise it is logged here, 4xx
 * at warn without a stack, 5xx at error with the full stack. A logger given to
 * `errorHandler({logger})` explicitly gets its own line in any case: the user asked for it.
 */
export function reportError(
  error: AppError,
  thrown: unknown,
  req: Request,
  res: Response,
  logger: Logger,
  explicit: boolean,
): void {
  const slot = (res as Response & { [kRequestLog]?: RequestLogSlot })[kRequestLog]
  if (slot !== undefined) {
    slot.error = error
    slot.cause = thrown !== error ? thrown : error.isOperational ? undefined : error.cause
    if (!explicit) return
  }
  const meta: Record<string, unknown> = {
    code: error.code,
    status: error.statusCode,
    method: req.method,
    path: pathOf(req),
  }
  const id = (req as { id?: unknown }).id
  if (typeof id === 'string' && id !== '') meta.requestId = id
  if (error.statusCode < 500) {
    logger.warn(meta, error.message)
    return
  }
  // A programmer error is logged with the stack of what was thrown, not of its AppError wrapper.
  const origin = !error.isOperational && error.cause instanceof Error ? error.cause : error
  meta.stack = origin.stack
  if (origin.cause instanceof Error) {
    meta.cause = { message: origin.cause.message, stack: origin.cause.stack }
  }
  logger.error(meta, error.message)
}

/** Logs a throwing `onError` hook; the response still goes out. */
export function reportHookFailure(failure: unknown, logger: Logger): void {
  logger.error(
    { stack: failure instanceof Error ? failure.stack : String(failure) },
    'errorHandler: onError hook threw',
  )
}
