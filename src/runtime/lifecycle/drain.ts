import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Request, Response } from 'express'
import { errorCodes } from '../../shared/error-codes.js'
import type { ResolvedConfig } from '../core/config.js'
import { contextOf, peekContext } from '../core/context.js'
import { abortRequest } from '../core/request-signal.js'
import { streamErrorPayload } from '../response/error-body.js'
import { streamOf } from '../stream/stream-error.js'
import { openResponses } from './connections.js'
import { isHealthRequest } from './health-requests.js'
import { dropLateAnswers, overtake } from './overtake.js'
import { refuse, SHUTDOWN_RETRY_AFTER, shutdownAnswer, shutdownError } from './refuse.js'

type Listener = (this: Server, req: IncomingMessage, res: ServerResponse) => void

const entry = errorCodes.SHUTTING_DOWN

// Before Express has seen the request: the app is the server's listener.
function healthy(req: IncomingMessage, app: unknown): boolean {
  try {
    return isHealthRequest(req as Request, app)
  } catch {
    return false
  }
}

/**
 * A server's drain, from `closeGracefully()`: until then the server runs untouched (no work per
 * request). From its start, the server's 'request' listeners sit behind one that answers each
 * new request 503 SHUTTING_DOWN with `Connection: close` (a health request still reaches the app,
 * with `Connection: close`), and every response in flight or answered since is tracked until it
 * closes. In-flight ones get `Connection: close` while their headers are not sent, so their
 * connections end after them; those whose headers went with keep-alive are closed once idle.
 */
export class Drain {
  /** Whether the requests in flight when the drain began are known (see connections.ts). */
  readonly known: boolean
  /** Requests in flight when the drain began. */
  readonly inFlight: number
  /** New requests answered 503. */
  refused: number
  private readonly server: Server
  private readonly listeners: Listener[]
  private readonly open: Set<ServerResponse>
  private config: ResolvedConfig | undefined
  private emptied: (() => void) | undefined

  constructor(server: Server) {
    this.server = server
    this.listeners = server.listeners('request') as Listener[]
    this.open = new Set()
    this.refused = 0
    this.config = undefined
    this.emptied = undefined
    const inFlight = openResponses(server)
    this.known = inFlight !== undefined
    this.inFlight = inFlight?.length ?? 0
    for (const res of inFlight ?? []) {
      this.config ??= peekContext(res as unknown as Response)?.config
      if (!res.headersSent) res.setHeader('Connection', 'close')
      this.track(res)
    }
    server.removeAllListeners('request')
    server.on('request', this.onRequest)
  }

  private readonly onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    this.track(res)
    if (!healthy(req, this.listeners[0])) {
      this.refused++
      refuse(res, this.appConfig())
      return
    }
    res.setHeader('Connection', 'close')
    for (const listener of this.listeners) listener.call(this.server, req, res)
  }

  /** The app's configuration, for the answer's format: `app.locals.shapeguard` once it is set. */
  private appConfig(): ResolvedConfig | undefined {
    for (const listener of this.listeners) {
      const locals = (listener as { locals?: { shapeguard?: ResolvedConfig } }).locals
      if (locals?.shapeguard !== undefined) return locals.shapeguard
    }
    return this.config
  }

  private track(res: ServerResponse): void {
    this.open.add(res)
    res.once('close', () => {
      this.open.delete(res)
      // A response whose headers went with keep-alive left its connection idle.
      if (typeof this.server.closeIdleConnections === 'function') this.server.closeIdleConnections()
      if (this.open.size === 0) this.emptied?.()
    })
  }

  /** Settles once every tracked response has closed. */
  empty(): Promise<void> {
    if (this.open.size === 0) return Promise.resolve()
    return new Promise((resolve) => {
      const before = this.emptied
      this.emptied = () => {
        before?.()
        resolve()
      }
    })
  }

  /**
   * The grace has ended: each response still open has its signal aborted with SHUTTING_DOWN, and
   * an open stream ends with its final SHUTTING_DOWN error event. Returns how many were cut off.
   */
  expire(): number {
    const err = shutdownError()
    let cut = 0
    for (const res of this.open) {
      if (res.writableEnded) continue
      cut++
      // The answer a handler gives its aborted signal (SHUTTING_DOWN, through errorHandler) says
      // when to come back, and ends the connection.
      if (!res.headersSent) {
        res.setHeader('Retry-After', String(SHUTDOWN_RETRY_AFTER))
        res.setHeader('Connection', 'close')
      }
      const r = res as unknown as Response
      const stream = streamOf(r)
      if (stream?.open === true) {
        const config = peekContext(r)?.config ?? this.appConfig()
        stream.endWithError(err, streamErrorPayload(r.req, config, shutdownAnswer))
      }
      abortRequest(r, err)
    }
    return cut
  }

  /**
   * Answers 503 SHUTTING_DOWN on each response still unanswered after `expire()` (its handler
   * ignored the signal); what the handler sends later is dropped.
   */
  answerRest(): void {
    for (const res of this.open) {
      if (res.headersSent || res.writableEnded) continue
      const r = res as unknown as Response
      // A response Express answers (it reached the app) is overtaken as a timeout overtakes it.
      if (peekContext(r)?.config !== undefined && typeof r.json === 'function')
        overtake(r, 'SHUTTING_DOWN', SHUTDOWN_RETRY_AFTER, shutdownError())
      else {
        contextOf(r).overtaken = entry.code
        refuse(res, this.appConfig())
        dropLateAnswers(r)
      }
    }
  }
}
