import type { Request, Response } from 'express'
import { type ErrorCode, errorCodes } from '../../shared/error-codes.js'
import { configOf, contextOf, peekContext } from '../core/context.js'
import { abortRequest } from '../core/request-signal.js'
import { endpointOf } from '../logging/request-log-state.js'
import { resolveLogger } from '../logging/resolve-logger.js'
import { errorBody, withStatus } from '../response/error-body.js'
import { sendFallback } from '../response/error-fallback.js'

// An answer that overtakes the handler: its timeout passed, or the server's drain ended. The
// client gets a 503 in the app's error format with Retry-After, `req.signal` aborts, and whatever
// the handler sends or throws later is dropped, with one log line saying so.

/** The codes an answer may overtake a handler with. */
export type OvertakingCode = Extract<ErrorCode, 'HANDLER_TIMEOUT' | 'SHUTTING_DOWN'>

/**
 * Answers the request with `code` (503) unless it is answered already, aborts its signal with
 * `reason`, and drops what the handler sends later. Returns whether it answered.
 */
export function overtake(
  res: Response,
  code: OvertakingCode,
  retryAfter: number,
  reason: unknown,
): boolean {
  const context = contextOf(res)
  if (context.overtaken !== undefined || res.headersSent || res.destroyed) return false
  context.overtaken = code
  const req = res.req as Request
  const config = configOf(req, res)
  const { status, message } = errorCodes[code]
  // The request log line records the answer as it records any error answer.
  const log = context.log
  if (log !== undefined) log.error = { code, message }
  try {
    res.setHeader('Retry-After', String(retryAfter))
    // A draining server ends each connection after its answer.
    if (code === 'SHUTTING_DOWN') res.setHeader('Connection', 'close')
    withStatus(res, status).json(errorBody(res, config, { code, status, message, details: null }))
  } catch {
    sendFallback(res, config?.errors)
  }
  dropLateAnswers(res)
  // Only now: a handler that answers from its abort listener finds its answer dropped.
  abortRequest(res, reason)
  return true
}

/**
 * Whether an error reaching asyncHandler or the error middleware comes after an overtaking
 * answer: it is dropped (the one line about the late answer is logged).
 */
export function overtaken(res: Response): boolean {
  if (peekContext(res)?.overtaken === undefined) return false
  lateAnswer(res)
  return true
}

/**
 * The handler's own answer, once overtaken: its headers, status and body go nowhere, with one
 * log line. Only an overtaken response gets these (its own properties): no other request pays.
 */
export function dropLateAnswers(res: Response): void {
  const status = res.statusCode
  const target = res as unknown as Record<string, unknown>
  Object.defineProperty(res, 'statusCode', {
    get: () => status,
    set: () => lateAnswer(res),
    configurable: true,
  })
  target.setHeader = function setHeader() {
    lateAnswer(res)
    return res
  }
  target.appendHeader = target.setHeader
  target.removeHeader = () => lateAnswer(res)
  target.writeHead = target.setHeader
  target.flushHeaders = () => lateAnswer(res)
  target.write = (...args: unknown[]) => {
    lateAnswer(res)
    callbackOf(args)
    return true
  }
  target.end = (...args: unknown[]) => {
    lateAnswer(res)
    callbackOf(args)
    return res
  }
}

// A write's callback still runs (a stream piped in waits for it), with no error.
function callbackOf(args: unknown[]): void {
  const last = args[args.length - 1]
  if (typeof last === 'function') queueMicrotask(() => (last as () => void)())
}

const told = new WeakSet<Response>()

// One line per request, whatever the handler does next: the route, never a value.
function lateAnswer(res: Response): void {
  if (told.has(res)) return
  told.add(res)
  const req = res.req as Request | undefined
  const code = peekContext(res)?.overtaken
  try {
    resolveLogger(undefined).warn(
      { method: req?.method, endpoint: req === undefined ? undefined : endpointOf(req), code },
      `shapeguard: the handler answered after ${code}; its late answer was dropped`,
    )
  } catch {
    // A logger that throws loses the line, never the process.
  }
}
