import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express'
import {
  checkBoolean,
  checkFunction,
  checkOptions,
  checkString,
} from '../../shared/check-option.js'
import { AppError } from '../core/app-error.js'
import {
  debugFromEnv,
  defaultFallbackMessage,
  type OnErrorHook,
  type ResolvedConfig,
} from '../core/config.js'
import { configOf } from '../core/context.js'
import { coverage } from '../core/coverage-probe.js'
import { dataField, isError, stackOf } from '../core/safe-read.js'
import { partOf } from '../core/validation-issue.js'
import { mountedConfigOf } from '../host/mounted-config.js'
import { overtaken } from '../lifecycle/overtake.js'
import { checkLoggerInstance } from '../logging/options.js'
import { resolveLogger } from '../logging/resolve-logger.js'
import type { Logger } from '../logging/types.js'
import { errorBody, streamErrorPayload, withStatus } from '../response/error-body.js'
import { sendFallback } from '../response/error-fallback.js'
import { withoutShapeguard } from '../response/without-shapeguard.js'
import { markTerminal } from '../router/warn-handler-order.js'
import { settledByStream, streamOf } from '../stream/stream-error.js'
import { errorType, traceError } from '../telemetry/spans.js'
import { reportError, reportHookFailure } from './error-log.js'
import { warnUndeclared } from './warn-undeclared.js'

/** Options of `errorHandler()`; each falls back to `shapeguard()`'s configuration, then a default. */
export interface ErrorHandlerOptions {
  /** Message of programmer errors in production. @default 'Something went wrong' */
  fallbackMessage?: string
  /** Called with every handled error before the response is sent; a throw is logged. */
  onError?: OnErrorHook
  /** Where errors are logged. @default the logger shapeguard() uses */
  logger?: Logger
  /** Development mode (real messages and stacks). @default `NODE_ENV !== 'production'` at mount time */
  debug?: boolean
}

// The middleware `app.use(errorHandler)` (without the call) stands for, made on first use.
let uncalled: ErrorRequestHandler | undefined

/**
 * The error middleware: turns anything thrown or passed to `next()` into the one error answer,
 * in the app's `errors.format` (the error envelope, or RFC 9457 problem details). Mount it last.
 * @param options default `{}`
 * @example app.use(errorHandler({ onError: (err) => metrics.count(err.code) }))
 */
export function errorHandler(options?: ErrorHandlerOptions): ErrorRequestHandler
// Four parameters, as Express counts them: mounted without the call, app.use(errorHandler) is an
// error middleware that Express calls with the error, and it answers as errorHandler() would.
export function errorHandler(
  optionsOrError?: unknown,
  req?: Request,
  res?: Response,
  next?: NextFunction,
): ErrorRequestHandler | undefined {
  if (typeof next === 'function') {
    uncalled ??= errorHandler()
    uncalled(optionsOrError, req as Request, res as Response, next)
    return undefined
  }
  const options = optionsOrError === undefined ? {} : optionsOrError
  return makeErrorHandler(options as ErrorHandlerOptions)
}
markTerminal(errorHandler, 'errorHandler()')

function makeErrorHandler(options: ErrorHandlerOptions): ErrorRequestHandler {
  checkOptions(options, ['fallbackMessage', 'onError', 'logger', 'debug'], 'errorHandler()')
  checkString(options.fallbackMessage, 'errorHandler(): fallbackMessage')
  checkFunction(options.onError, 'errorHandler(): onError')
  if (options.logger !== undefined) checkLoggerInstance(options.logger, 'errorHandler(): logger')
  const mountDebug = checkBoolean(options.debug, 'errorHandler(): debug') ?? debugFromEnv()
  return markTerminal(
    function errorHandler(thrown: unknown, req: Request, res: Response, _next) {
      const config = configOf(req, res) ?? mountedConfigOf(req)
      // A timeout (or a drain) answered already: what the handler raised later is dropped.
      if (overtaken(res)) return
      try {
        answer(thrown, req, res, config, options, mountDebug)
      } catch (failure) {
        sendFallback(res, config?.errors)
        try {
          resolveLogger(options.logger).error(
            { stack: failure instanceof Error ? failure.stack : String(failure) },
            'errorHandler failed; sent the fallback error response',
          )
        } catch {
          // The logger itself is broken; the fallback response already went out.
        }
      }
    } satisfies ErrorRequestHandler,
    'errorHandler()',
  )
}

function answer(
  thrown: unknown,
  req: Request,
  res: Response,
  config: ResolvedConfig | undefined,
  options: ErrorHandlerOptions,
  mountDebug: boolean,
): void {
  const logger = resolveLogger(options.logger)
  const explicit = options.logger !== undefined
  const error =
    !hasHelpers(res) && isMissingHelper(thrown)
      ? withoutShapeguard(thrown.message, thrown)
      : AppError.fromUnknown(thrown)
  const status = validStatus(error.statusCode)
  const operational = thrown === error || error.isOperational
  const stream = streamOf(res)
  // The client went, or the stream already ended with this error: nothing to answer or log.
  if (settledByStream(res, thrown)) return
  traceError(status, error.code, operational ? error.code : errorType(thrown))

  if (res.headersSent && stream?.open !== true) {
    // Nothing more can be said to this client. An unfinished body is cut off (as Express's own
    // handler does) so the client sees a failure rather than waiting or trusting a partial body.
    if (!res.writableEnded && typeof res.destroy === 'function') res.destroy()
    safely(() => reportError(error, thrown, req, res, logger, explicit))
    return
  }

  const debug = options.debug ?? config?.debug ?? mountDebug
  const onError = options.onError ?? config?.errors.onError
  if (onError !== undefined) {
    try {
      onError(error, req)
    } catch (failure) {
      safely(() => reportHookFailure(failure, logger))
    }
  }
  safely(() => reportError(error, thrown, req, res, logger, explicit))
  if (thrown === error) safely(() => warnUndeclared(req, res, error, logger))

  let message = error.message
  let details: unknown = error.details
  if (!error.isOperational) {
    const fallback = options.fallbackMessage ?? config?.errors.fallbackMessage
    message = debug ? message : (fallback ?? defaultFallbackMessage)
    // A stream's error event never carries a stack: it goes out among the stream's events.
    details =
      (debug && stream === undefined && isError(error.cause) ? stackOf(error.cause) : undefined) ??
      null
  }
  const answered = { code: error.code, status, message, details, part: partOf(error) }
  coverage.probe?.error(res, error.code)
  // After the stream's first byte: its final error event (or line), then the end.
  if (stream !== undefined) stream.endWithError(thrown, streamErrorPayload(req, config, answered))
  else withStatus(res, status).json(errorBody(res, config, answered))
}

// What calling a helper on a response shapeguard() never saw throws: `res.ok is not a function`.
const missingHelper =
  /^[\w$]+\.(?:ok|created|accepted|noContent|paginated|cursorPaginated|fail) is not a function$/

function isMissingHelper(thrown: unknown): thrown is TypeError {
  if (!isError(thrown, TypeError)) return false
  const message = dataField(thrown, 'message')
  return typeof message === 'string' && missingHelper.test(message)
}

function hasHelpers(res: Response): boolean {
  return typeof (res as Partial<Response>).ok === 'function'
}

function validStatus(status: number): number {
  return Number.isInteger(status) && status >= 400 && status <= 599 ? status : 500
}

// Logging must never stop the response: a throwing logger loses its line, not the answer.
function safely(fn: () => void): void {
  try {
    fn()
  } catch {
    // see above
  }
}
