import type { Response } from 'express'
import { PROBLEM_CONTENT_TYPE, problemFallback } from '../../shared/problem-details.js'
import type { ResolvedConfig } from '../core/config.js'

// Written when building the real error response failed; needs nothing that could fail again.
const envelope = JSON.stringify({
  success: false,
  message: 'Something went wrong',
  error: { code: 'INTERNAL_ERROR', message: 'Something went wrong', details: null },
})
const problem = problemFallback()

/**
 * Sends the hard-coded 500 error answer in the app's `errors.format` (the envelope without
 * one), or, if even that fails, ends the response.
 */
export function sendFallback(res: Response, errors?: ResolvedConfig['errors']): void {
  try {
    if (res.headersSent) {
      if (!res.writableEnded) res.destroy()
      return
    }
    const problems = errors?.format === 'problem+json'
    const base = problems ? errors.problemTypeBase : undefined
    const body = !problems ? envelope : base === undefined ? problem : problemFallback(base)
    res.statusCode = 500
    res.setHeader(
      'Content-Type',
      problems ? PROBLEM_CONTENT_TYPE : 'application/json; charset=utf-8',
    )
    res.setHeader('Content-Length', String(Buffer.byteLength(body)))
    res.end(body)
  } catch {
    try {
      res.destroy()
    } catch {
      // Nothing is left to try; the process must not die from a request.
    }
  }
}
