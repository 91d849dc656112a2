import type { ServerResponse } from 'node:http'
import type { Response } from 'express'
import { errorCodes } from '../../shared/error-codes.js'
import { type AppError, raise } from '../core/app-error.js'
import type { ResolvedConfig } from '../core/config.js'
import { errorBody } from '../response/error-body.js'

/**
 * The `Retry-After` of a SHUTTING_DOWN answer, in seconds: the client's next try opens a new
 * connection, which the load balancer sends to an instance that is not going away.
 */
export const SHUTDOWN_RETRY_AFTER = 1

const entry = errorCodes.SHUTTING_DOWN

/** The SHUTTING_DOWN answer, as the error body and a stream's final error event carry it. */
export const shutdownAnswer = {
  code: entry.code,
  status: entry.status,
  message: entry.message,
  details: null,
} as const

/** What a request's signal aborts with when the shutdown's grace ends. */
export function shutdownError(): AppError {
  return raise('SHUTTING_DOWN')
}

/**
 * Answers 503 SHUTTING_DOWN in the app's error format (the default envelope without `config`),
 * with `Retry-After` and `Connection: close`, on a response no handler has answered: one that
 * arrived while the server drains (it never reaches the app, so no Express method is used), or
 * one still unanswered when the shutdown's grace ended.
 */
export function refuse(res: ServerResponse, config: ResolvedConfig | undefined): void {
  try {
    const body = JSON.stringify(errorBody(res as unknown as Response, config, shutdownAnswer))
    res.statusCode = entry.status
    if (!res.hasHeader('Content-Type')) {
      res.setHeader('Content-Type', 'application/json; charset=utf-8')
    }
    res.setHeader('Retry-After', String(SHUTDOWN_RETRY_AFTER))
    res.setHeader('Connection', 'close')
    res.setHeader('Content-Length', String(Buffer.byteLength(body)))
    res.end(body)
  } catch {
    // A response that cannot be answered any more is closed instead; the process stays.
    try {
      res.destroy()
    } catch {}
  }
}
