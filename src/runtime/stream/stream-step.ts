import type { Request, Response } from 'express'
import type { Step } from '../core/step.js'
import { lastEventIdOf } from './frame.js'

/** The step of an SSE route (`events`): `req.lastEventId`. */
export function streamStep(): Step {
  return function stream(req: Request, _res: Response) {
    // The header's raw value never goes further than this check: no log line reads it.
    req.lastEventId = lastEventIdOf(req.headers['last-event-id'])
    return undefined
  }
}
