import type { Request, Response } from 'express'
import { optionError } from '../../shared/error-codes.js'
import { peekContext } from '../core/context.js'
import { requestSignal } from '../core/request-signal.js'

/**
 * Writes a stream's head: status 200, its Content-Type, the headers that keep proxies from
 * buffering or caching it and `compression` from compressing it (it honours `no-transform`), then
 * flushes it, so a proxy passes the stream on before the first event. Returns the request's
 * signal (core/request-signal.ts).
 */
export function startStream(res: Response, contentType: string, helper: string): AbortSignal {
  if (peekContext(res)?.stream !== undefined || res.headersSent) {
    throw optionError(
      'SG_ERR_STREAM_STARTED',
      `shapeguard: res.${helper}(): the response has ${res.headersSent ? 'been sent' : 'a stream'} already, start one stream per request`,
    )
  }
  const req = res.req as Request
  // Made before the head goes: a client that left meanwhile finds it aborted already.
  const signal = requestSignal(res)
  res.statusCode = 200
  res.removeHeader('Content-Length')
  res.removeHeader('ETag')
  res.setHeader('Content-Type', contentType)
  res.setHeader('Cache-Control', 'no-cache, no-transform')
  res.setHeader('X-Accel-Buffering', 'no')
  if (req.httpVersion === '1.1') res.setHeader('Connection', 'keep-alive')
  res.flushHeaders()
  return signal
}
