import type { Request, Response } from 'express'
import type { RequestPart } from '../../engine/result.js'
import { PROBLEM_CONTENT_TYPE, problemDetails } from '../../shared/problem-details.js'
import type { ResolvedConfig } from '../core/config.js'
import { pathOf } from '../logging/request-log-state.js'
import { defaultShape } from './envelope.js'

/** One error answer, as the client may read it (a hidden programmer error already hidden). */
export interface ErrorAnswer {
  readonly code: string
  /** The HTTP status the answer goes out with. */
  readonly status: number
  readonly message: string
  readonly details: unknown
  /** The request part a validation error's issues are in. */
  readonly part?: RequestPart | undefined
}

/**
 * The body of an error answer in the app's `errors.format`: the error envelope (renamed by
 * `response.shape`), or RFC 9457 problem details. The answer goes out with its format's
 * Content-Type, never one a handler set before it failed (`res.json` keeps a type already set, and
 * an error message may echo what the client sent: never as HTML): problem details set theirs; for
 * the envelope a type already set is removed, and `res.json` (or `sendJson`) writes JSON's. Call
 * it before the headers are sent. Without shapeguard()'s configuration, the default envelope. A
 * hand-made response double (`{ status, json }`) has no header methods: its headers are left alone.
 */
export function errorBody(
  res: Response,
  config: ResolvedConfig | undefined,
  answer: ErrorAnswer,
): unknown {
  const problem = config?.errors.format === 'problem+json'
  if (!problem && typeof res.removeHeader === 'function') res.removeHeader('Content-Type')
  if (problem && typeof res.setHeader === 'function')
    res.setHeader('Content-Type', PROBLEM_CONTENT_TYPE)
  return errorPayload(res.req as Request | undefined, config, answer)
}

/**
 * The body `errorBody` answers with, without touching the headers: what a stream's final error
 * event carries once its headers are gone.
 */
export function errorPayload(
  req: Request | undefined,
  config: ResolvedConfig | undefined,
  answer: ErrorAnswer,
): unknown {
  if (config?.errors.format !== 'problem+json') {
    const shape = config?.response.shape ?? defaultShape
    return shape.error(answer.code, answer.message, answer.details)
  }
  return problemDetails(
    { ...answer, requestId: req?.id, path: req === undefined ? undefined : pathOf(req) },
    config.errors.problemTypeBase,
  )
}

/**
 * The body of a stream's final error event or line: `errorPayload`, with the request ID beside
 * the envelope's fields (problem details hold it already), since an event has no headers.
 */
export function streamErrorPayload(
  req: Request | undefined,
  config: ResolvedConfig | undefined,
  answer: ErrorAnswer,
): unknown {
  const body = errorPayload(req, config, answer)
  if (config?.errors.format === 'problem+json' || !req?.id) return body
  return { ...(body as object), requestId: req.id }
}

/**
 * `res.status(status)`: the response to write the answer on. A hand-made double whose `status()`
 * returns nothing to chain on (`status: vi.fn()`) is written on itself.
 */
export function withStatus(res: Response, status: number): Response {
  const chained: unknown = res.status(status)
  return typeof (chained as Partial<Response> | undefined)?.json === 'function'
    ? (chained as Response)
    : res
}
