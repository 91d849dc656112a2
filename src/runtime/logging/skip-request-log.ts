import type { Response } from 'express'
import { peekContext } from '../core/context.js'

/**
 * Leaves a request out of the request log (a health probe): the request logger, which watched it
 * from before routing, writes no line when its response ends. Call it before the answer is sent.
 */
export function skipRequestLog(res: Response): void {
  const context = peekContext(res)
  const state = context?.log
  if (context === undefined || state === undefined) return
  // The body capture of `logResponseBody` reads the state it no longer has: give `res.json` back.
  if (state.json !== undefined) res.json = state.json
  context.log = undefined
}
