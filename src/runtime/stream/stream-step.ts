import type { Request, Response } from 'express'
import type { Step } from '../core/step.js'
import { lastEventIdOf } from './frame.js'
import { StreamClosedError } from './stream-closed.js'

// Only a streaming route runs it: `req.signal`, aborted when the response closes (the client
// went, or the stream ended), and on an SSE route `req.lastEventId`. Node 24+ has a `signal`
// getter of its own on requests (aborted only when the client goes, absent on Node 22): an own
// property shadows it, so a handler sees the same signal on every Node line.

function signalOf(res: Response): AbortSignal {
  const controller = new AbortController()
  res.once('close', () => controller.abort(new StreamClosedError()))
  return controller.signal
}

/** The step of a route with `events` (`sse`) or `stream`. */
export function streamStep(sse: boolean): Step {
  return function stream(req: Request, res: Response) {
    Object.defineProperty(req, 'signal', {
      value: signalOf(res),
      writable: true,
      enumerable: true,
      configurable: true,
    })
    // The header's raw value never goes further than this check: no log line reads it.
    if (sse) req.lastEventId = lastEventIdOf(req.headers['last-event-id'])
    return undefined
  }
}
