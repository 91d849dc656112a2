import type { Request, Response } from 'express'
import type { AppError } from '../core/app-error.js'
import { peekContext, type RequestLogSlot } from '../core/context.js'
import { errorFields } from '../logging/error-fields.js'
import { pathOf } from '../logging/request-log-state.js'
import type { Logger } from '../logging/types.js'
import { requestTraceFields } from '../telemetry/trace-fields.js'

/**
 * One log line per error: when the request logger watches this response, the error is handed to
 * it through the request context and goes on that request's line; otherwise it is logged here, 4xx
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
  const handed: RequestLogSlot = {
    error,
    cause: thrown !== error ? thrown : error.isOperational ? undefined : error.cause,
  }
  const slot = peekContext(res)?.log
  if (slot !== undefined) {
    slot.error = handed.error
    slot.cause = handed.cause
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
  const trace = requestTraceFields(req.headers)
  if (trace !== undefined) Object.assign(meta, trace)
  if (error.statusCode < 500) {
    logger.warn(meta, error.message)
    return
  }
  // The request logger's own reading: the stack of what was thrown (not of its AppError
  // wrapper) and its cause, where no getter or Proxy trap that throws can lose the line.
  const { stack, cause } = errorFields(handed, error.statusCode) ?? {}
  if (stack !== undefined) meta.stack = stack
  if (cause !== undefined) meta.cause = cause
  logger.error(meta, error.message)
}

/** Logs a throwing `onError` hook; the response still goes out. */
export function reportHookFailure(failure: unknown, logger: Logger): void {
  logger.error(
    { stack: failure instanceof Error ? failure.stack : String(failure) },
    'errorHandler: onError hook threw',
  )
}
