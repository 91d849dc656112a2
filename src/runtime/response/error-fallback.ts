import type { Response } from 'express'

// Written when building the real error response failed; needs nothing that could fail again.
const body = JSON.stringify({
  success: false,
  message: 'Something went wrong',
  error: { code: 'INTERNAL_ERROR', message: 'Something went wrong', details: null },
})
const length = String(Buffer.byteLength(body))

/** Sends the hard-coded 500 error envelope, or, if even that fails, ends the response. */
export function sendFallback(res: Response): void {
  try {
    if (res.headersSent) {
      if (!res.writableEnded) res.destroy()
      return
    }
    res.statusCode = 500
    res.setHeader('Content-Type', 'application/json; charset=utf-8')
    res.setHeader('Content-Length', length)
    res.end(body)
  } catch {
    try {
      res.destroy()
    } catch {
      // Nothing is left to try; the process must not die from a request.
    }
  }
}
