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
 * `response.shape`), or RFC 9457 problem details, whose Content-Type it then sets on the
 * response. Without shapeguard()'s configuration, the default envelope.
 */
export function errorBody(
  res: Response,
  config: ResolvedConfig | undefined,
  answer: ErrorAnswer,
): unknown {
  if (config?.errors.format !== 'problem+json') {
    const shape = config?.response.shape ?? defaultShape
    return shape.error(answer.code, answer.message, answer.details)
  }
  const req = res.req as Request | undefined
  res.setHeader('Content-Type', PROBLEM_CONTENT_TYPE)
  return problemDetails(
    { ...answer, requestId: req?.id, path: req === undefined ? undefined : pathOf(req) },
    config.errors.problemTypeBase,
  )
}
