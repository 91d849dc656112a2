import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { contextOf, peekContext } from '../core/context.js'
import { requestSpan } from '../telemetry/request-span.js'
import { traceFields } from '../telemetry/trace-fields.js'
import { maskQuery, maskSpanUrl } from '../telemetry/url-query.js'
import type { AppLog } from './app-log.js'
import { type CappedBody, capBody } from './body-cap.js'
import { errorFields } from './error-fields.js'
import { LEVEL_VALUE, levelForStatus } from './levels.js'
import { installSink } from './logger.js'
import { lineLost } from './lost-lines.js'
import { type LoggerOptions, resolveLoggerOptions } from './options.js'
import { printable } from './printable.js'
import { REDACTED } from './redact.js'
import {
  detailLines,
  idPart,
  lineColor,
  streamPart,
  streamRecord,
  streamStatus,
  tracePart,
} from './request-line.js'
import {
  clientIpOf,
  endpointOf,
  pathOf,
  RequestLogState,
  requestIdOf,
} from './request-log-state.js'
import { inScope, runInScope } from './request-scope.js'
import { type BackendDeps, resolveBackend } from './resolve-backend.js'

// Where the bodies sit for `logger.redact` paths: `req.body.dob`, `body.dob`, `res.body.data.dob`.
const REQ_BODY = Object.freeze(['req', 'body'])
const RES_BODY = Object.freeze(['res', 'body'])
const ERROR = LEVEL_VALUE.error
const DEBUG = LEVEL_VALUE.debug

function round(ms: number): number {
  return Math.round(ms * 100) / 100
}

/** The request logger, with the app's logging its requests' lines go through. */
export type RequestLogger = RequestHandler & { readonly appLog: AppLog }

/**
 * The request logger `shapeguard()` mounts: one line when a request arrives (debug) and one when
 * its response leaves, carrying the error the error middleware handed over in the request context,
 * or when the connection closes first (`aborted`). The rest of the request runs in its scope, so
 * that `logger` and `req.log` write through this backend, with the request's ID.
 * Options are resolved and the backend chosen (and made `logger`'s default) at mount time.
 * The request's span, when OpenTelemetry records one, gets the credentials in its URL masked.
 * @param options the `logger` options of `shapeguard()`; defaults follow `debug`
 * @param debug development defaults when true
 * @param credentials redact paths of the app's own credentials (`credentialPaths`), redacted
 * whatever the options say (a `logger.instance` included)
 * @example app.use(requestLogger({ slowThreshold: 200 }, true))
 */
export function requestLogger(
  options: LoggerOptions | undefined,
  debug: boolean,
  deps: BackendDeps = {},
  credentials: readonly string[] = [],
): RequestLogger {
  const resolved = resolveLoggerOptions(options, debug)
  const o =
    credentials.length === 0
      ? resolved
      : Object.freeze({ ...resolved, redact: [...resolved.redact, ...credentials] })
  const app = installSink(resolveBackend(o, deps), o)
  const { sink, redact } = app
  const { logAllRequests, logIncoming, logRequestId, logClientIp, slowThreshold } = o
  const wrapJson = o.logResponseBody

  function logArrival(req: Request, span: object | undefined): void {
    const id = logRequestId ? requestIdOf(req) : ''
    const path = pathOf(req)
    const trace = traceFields(span, req.headers)
    if (sink.pretty) {
      // The path and address come from the request: escaped, like every pretty line's parts.
      const [open, close] = lineColor(o, sink.colors, req.method, undefined)
      sink.logger.debug(
        `${open}>> ${req.method} ${printable(path)}${idPart(o, id)}${tracePart(trace)}${close}`,
      )
      return
    }
    const record: Record<string, unknown> = {}
    if (id !== '') record.requestId = id
    record.method = req.method
    record.path = path
    if (trace !== undefined) Object.assign(record, trace)
    const message = `>> ${req.method} ${path}`
    if (sink.flat === undefined || !sink.flat('debug', record, message)) {
      sink.logger.debug(record, message)
    }
  }

  // The bodies asked for, redacted and capped in one walk. A request body is the validated one, or
  // what a guard or a schema refused.
  function bodiesOf(state: RequestLogState): Record<string, CappedBody> | undefined {
    if (!o.logRequestBody && !wrapJson) return undefined
    const bodies: Record<string, CappedBody> = {}
    if (o.logRequestBody && state.req.body !== undefined) {
      bodies.reqBody = capBody(redact, state.req.body, REQ_BODY, o.logBodyMaxBytes)
    }
    if (wrapJson && state.resBody !== undefined) {
      bodies.resBody = capBody(redact, state.resBody, RES_BODY, o.logBodyMaxBytes)
    }
    return bodies
  }

  // One shared listener for every response (`this` is the response): no closure per request.
  // Node emits 'close' once a response is complete, and also when its connection closes first
  // (the client went away, or the response was cut off): `writableFinished` tells them apart.
  // A logger that throws loses its line, never the process (this runs outside any request).
  function onClose(this: Response): void {
    try {
      logResponse(this, !this.writableFinished)
    } catch {
      lineLost()
    }
  }

  function logResponse(res: Response, closedEarly: boolean): void {
    let aborted = closedEarly
    const state = peekContext(res)?.log
    if (state === undefined) return
    const duration = performance.now() - state.start
    // A stream: its client leaving is how it usually ends, and a long one is not slow; an error
    // after its first byte is logged at the error's status (the line's status stays the 200 sent).
    const stream = peekContext(res)?.stream
    if (stream !== undefined) aborted = false
    const answered = stream === undefined ? res.statusCode : streamStatus(state, res.statusCode)
    // Aborted lines come in every mode, at warn; their status only if the head went out.
    const status = aborted && !res.headersSent ? undefined : res.statusCode
    const slow = stream === undefined && slowThreshold > 0 && duration >= slowThreshold
    if (!aborted && !logAllRequests && answered < 400 && !slow) return
    const level = aborted ? 'warn' : levelForStatus(answered, slow)
    if (LEVEL_VALUE[level] < app.threshold()) return
    const { req } = state
    const id = logRequestId ? requestIdOf(req) : ''
    const error = errorFields(state, answered)
    const bodies = bodiesOf(state)
    const trace = traceFields(state.span, req.headers)
    if (sink.pretty) {
      // An aborted line takes a client error's colour.
      const [open, close] = lineColor(o, sink.colors, req.method, aborted ? 499 : status)
      const ip = logClientIp ? ` ${printable(clientIpOf(req))}` : ''
      const flags = `${slow ? ' SLOW' : ''}${aborted ? ' ABORTED' : ''}${stream === undefined ? '' : streamPart(stream)}`
      // An error's message and stack may hold a URL with credentials: masked, as bodies are.
      const details = maskQuery(detailLines(error, bodies), app.isSecretParam, REDACTED)
      sink.logger[level](
        `${open}<< ${status ?? '-'} ${req.method} ${printable(pathOf(req))} ${Math.round(duration)}ms${idPart(o, id)}${ip}${tracePart(trace)}${flags}${close}${details}`,
      )
      return
    }
    // One literal, one shape: most records have exactly these fields.
    const record: Record<string, unknown> = {
      requestId: id === '' ? undefined : id,
      method: req.method,
      endpoint: endpointOf(req),
      status,
      duration_ms: round(duration),
      trace_id: trace?.trace_id,
      span_id: trace?.span_id,
      trace_flags: trace?.trace_flags,
    }
    if (slow) record.slow = true
    if (aborted) record.aborted = true
    if (stream !== undefined) record.stream = streamRecord(stream)
    if (error !== undefined) Object.assign(record, redact(error))
    if (logClientIp) record.ip = clientIpOf(req)
    if (bodies !== undefined) for (const key in bodies) record[key] = bodies[key]!.value
    if (sink.flat === undefined || !sink.flat(level, record)) sink.logger[level](record)
  }

  // Captures what `res.json` sends (the stripped envelope); installed only with logResponseBody.
  function loggedJson(this: Response, body: unknown): Response {
    const state = peekContext(this)!.log!
    state.resBody = body
    return state.json!.call(this, body) as Response
  }

  // What the request logger does for a request it will log.
  function watch(req: Request, res: Response, threshold: number, span: object | undefined): void {
    const context = contextOf(res)
    if (context.log !== undefined) return
    const state = new RequestLogState(req, performance.now(), span)
    context.log = state
    if (logIncoming && threshold === DEBUG) {
      try {
        logArrival(req, state.span)
      } catch {
        // A broken logger must not fail the request it was only watching.
        lineLost()
      }
    }
    if (wrapJson) {
      state.json = res.json
      res.json = loggedJson as Response['json']
    }
    res.on('close', onClose)
  }

  function requestLogger(req: Request, res: Response, next: NextFunction): void {
    // An outer shapeguard() already has this request: its backend logs it.
    if (inScope(req)) {
      next()
      return
    }
    // Silent, or a response double without events (unit tests): nothing to watch, and the error
    // middleware logs errors itself.
    const span = requestSpan()
    maskSpanUrl(span, app.isSecretParam)
    const threshold = app.threshold()
    if (threshold <= ERROR && typeof res.on === 'function') watch(req, res, threshold, span)
    runInScope(app, req, next)
  }
  return Object.assign(requestLogger, { appLog: app })
}
