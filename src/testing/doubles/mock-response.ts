import { STATUS_CODES } from 'node:http'
import type { Request, Response } from 'express'
import { resolveConfig, type ShapeguardConfig } from '../../runtime/middleware/resolve-config.js'
import { installHelpers, responseHelpers } from '../../runtime/response/helpers.js'
import type { ResponseHelpers } from '../../runtime/response/types.js'
import { checkOptionalOptions as checkOptions } from '../../shared/check-option.js'

/** What a `mockResponse()` has been told to send. */
export interface MockResult {
  statusCode: number
  /** What `json`, `send`, `end` or a helper wrote; `undefined` when nothing was. */
  body: unknown
  /** Header names in lower case. */
  headers: Record<string, string | number | readonly string[]>
}

/** One recorded call on the mock response. */
export interface MockCall {
  method: string
  args: unknown[]
}

/** `mockResponse()`: a response with the shapeguard helpers that records what it is told. */
export type MockResponse = Response &
  ResponseHelpers & {
    /** Status, body and headers as a client would see them. */
    _result(): MockResult
    /** Every call of status, json, send, end, setHeader and the helpers, in order. */
    _calls: MockCall[]
  }

/** What `mockResponse()` can be given. */
export interface MockResponseOptions {
  /** The request this response answers: `res.ok` picks its status by `req.method`. */
  req?: Request
  /** The `shapeguard()` configuration the helpers follow. @default {} */
  config?: ShapeguardConfig
}

const helperNames = Object.keys(responseHelpers) as Array<keyof ResponseHelpers>

/**
 * A response double with status, headers, `json`/`send`/`end` and every response helper, for
 * unit-testing handlers and middleware without a server.
 * @param options default `{}`
 * @example const res = mockResponse(); await handler(req, res); expect(res._result().statusCode).toBe(200)
 */
export function mockResponse(options: MockResponseOptions = {}): MockResponse {
  checkOptions(options, ['req', 'config'], 'mockResponse()')
  const headers: Record<string, string | number | readonly string[]> = {}
  const calls: MockCall[] = []
  let body: unknown
  let headersSent = false
  let ended = false

  // A second answer throws as it does in Express (its headers cannot be set any more).
  const finish = (value: unknown) => {
    if (headersSent) throw headersSentError()
    body = value
    headersSent = true
    ended = true
  }
  const setHeader = (name: string, value: string | number | readonly string[]) => {
    if (headersSent) throw headersSentError()
    headers[name.toLowerCase()] = value
  }

  const res = {
    statusCode: 200,
    locals: {},
    req: options.req,
    get headersSent() {
      return headersSent
    },
    get writableEnded() {
      return ended
    },
    status(code: number) {
      res.statusCode = code
      return res
    },
    sendStatus(code: number) {
      res.statusCode = code
      finish(STATUS_CODES[code] ?? String(code))
      return res
    },
    setHeader(name: string, value: string | number | readonly string[]) {
      setHeader(name, value)
      return res
    },
    set(field: string | Record<string, string>, value?: string) {
      if (typeof field === 'string') setHeader(field, value ?? '')
      else for (const [name, v] of Object.entries(field)) setHeader(name, v)
      return res
    },
    header(field: string | Record<string, string>, value?: string) {
      return res.set(field, value)
    },
    type(value: string) {
      setHeader('content-type', value.includes('/') ? value : `application/${value}`)
      return res
    },
    getHeader: (name: string) => headers[name.toLowerCase()],
    get: (name: string) => headers[name.toLowerCase()],
    getHeaders: () => ({ ...headers }),
    hasHeader: (name: string) => name.toLowerCase() in headers,
    removeHeader(name: string) {
      delete headers[name.toLowerCase()]
    },
    json(value: unknown) {
      if (!('content-type' in headers)) setHeader('content-type', 'application/json; charset=utf-8')
      finish(value)
      return res
    },
    send(value: unknown) {
      if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
        return res.json(value)
      }
      finish(value)
      return res
    },
    end(chunk?: unknown) {
      // Ending an ended response is ignored, as Node ignores it.
      if (!ended) finish(typeof chunk === 'function' ? undefined : chunk)
      return res
    },
    destroy() {
      ended = true
      return res
    },
    _calls: calls,
    _result: (): MockResult => ({ statusCode: res.statusCode, body, headers: { ...headers } }),
  }

  for (const name of ['status', 'sendStatus', 'setHeader', 'set', 'json', 'send', 'end'] as const) {
    record(res, name, calls)
  }
  const mock = res as unknown as MockResponse
  installHelpers(mock, resolveConfig(options.config))
  for (const name of helperNames) record(mock, name, calls)
  return mock
}

function record(target: object, name: string, calls: MockCall[]): void {
  const t = target as Record<string, (...args: unknown[]) => unknown>
  const original = t[name]!
  t[name] = function (this: unknown, ...args: unknown[]) {
    calls.push({ method: name, args })
    return original.apply(this, args)
  }
}

function headersSentError(): Error {
  const err = new Error('Cannot set headers after they are sent to the client')
  return Object.assign(err, { code: 'ERR_HTTP_HEADERS_SENT' })
}
