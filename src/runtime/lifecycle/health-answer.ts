import type { Request, Response } from 'express'
import { errorCodes } from '../../shared/error-codes.js'
import type { ResolvedConfig } from '../core/config.js'
import { configOf } from '../core/context.js'
import { mountedConfigOf } from '../host/mounted-config.js'
import { printable } from '../logging/printable.js'
import { defaultShape } from '../response/envelope.js'
import { errorBody } from '../response/error-body.js'
import type { CheckOutcome } from './health-checks.js'
import { type ReadinessReport, statesOf } from './readiness.js'

// The answers of health(): in the app's envelope and error format when a shapeguard() configures
// it (found from the request, or from the app's stack before its first request), else the
// defaults. A probe's answer is never cached by a proxy in between.

function configFor(req: Request, res: Response): ResolvedConfig | undefined {
  return configOf(req, res) ?? mountedConfigOf(req)
}

function send(res: Response, status: number, body: unknown): void {
  res.status(status)
  res.setHeader('Cache-Control', 'no-store')
  res.json(body)
}

/** 200 with the success envelope around `data`. */
export function answerHealthy(req: Request, res: Response, data: unknown): void {
  const shape = configFor(req, res)?.response.shape ?? defaultShape
  send(res, 200, shape.success(data, ''))
}

/**
 * 503 NOT_READY in the app's error format: `details.checks` holds each check's state (`ok`,
 * `failed`, `timeout`), in development (`debug`) `details.reasons` a short line of what each failing
 * check did, never a stack; while the server drains, `details.draining` and no check is run.
 */
export function answerNotReady(
  req: Request,
  res: Response,
  report: ReadinessReport | 'draining',
  debugByDefault: boolean,
): void {
  const config = configFor(req, res)
  const { message, status } = errorCodes.NOT_READY
  let details: Record<string, unknown>
  // No problem member among the keys (`status`, `errors`): problem details spread them as members.
  if (report === 'draining') details = { draining: true }
  else {
    details = { checks: statesOf(report) }
    if (config?.debug ?? debugByDefault) details.reasons = errorLines(report.outcomes)
  }
  send(res, status, errorBody(res, config, { code: 'NOT_READY', status, message, details }))
}

const maxLine = 120

function errorLines(outcomes: ReadonlyMap<string, CheckOutcome>): Record<string, string> {
  const lines: Record<string, string> = {}
  for (const [name, { state, error }] of outcomes) {
    if (state === 'timeout') lines[name] = 'did not answer within its timeout'
    else if (state === 'failed') lines[name] = errorLine(error)
  }
  return lines
}

function errorLine(error: unknown): string {
  if (error === undefined) return 'returned false'
  if (!(error instanceof Error)) return 'threw a value that is not an Error'
  try {
    // One line, no control characters, bounded: a driver's message may be long or multi-line.
    const line = printable(`${error.name}: ${error.message}`)
    return line.length > maxLine ? `${line.slice(0, maxLine - 1)}…` : line
  } catch {
    return 'threw an Error whose message cannot be read'
  }
}
