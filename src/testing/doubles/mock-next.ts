import type { NextFunction } from 'express'
import { optionError } from '../../shared/error-codes.js'

/** `mockNext()`: a `next` that records how it was called. */
export interface MockNext extends NextFunction {
  /** Whether `next` was called at all. */
  called: boolean
  /** How many times it was called. */
  calls: number
  /** The argument of the last call (`undefined` when called without one). */
  error: unknown
}

/**
 * A `next` double that records whether it was called and with what.
 * @example const next = mockNext(); middleware(req, res, next); expect(next.error).toBeUndefined()
 */
export function mockNext(...options: []): MockNext {
  // It takes nothing: an object given from JavaScript would be ignored without a word.
  if ((options as unknown[]).some((o) => o !== undefined))
    throw optionError('SG_ERR_UNKNOWN_OPTION', 'shapeguard: mockNext(): takes no options')
  const next = ((error?: unknown) => {
    next.called = true
    next.calls += 1
    next.error = error
  }) as MockNext
  next.called = false
  next.calls = 0
  next.error = undefined
  return next
}
