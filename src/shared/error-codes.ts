import { type MisuseCode, misuseCodes } from './misuse-codes.js'

/** One code of the registry: its status, its default message, and who may read what it says. */
export interface ErrorCodeEntry {
  readonly code: string
  readonly status: number
  /** The message when the raiser gives none. */
  readonly message: string
  /**
   * Whether the client is sent this code's message and details as raised. `false` (only
   * INTERNAL_ERROR) makes shapeguard's own raises programmer errors (`isOperational: false`),
   * whose message and details errorHandler replaces in production.
   */
  readonly exposed: boolean
  /** The feature that will raise the code, while it is not built yet. */
  readonly reserved?: string
}

/**
 * Every error code shapeguard itself sends, with its HTTP status and default message. The key
 * equals the code; codes are never reused for another meaning. Every error shapeguard raises is
 * made from here by `raise()`; `AppError.custom`, `AppError.define`, `res.fail` and subclasses may
 * use codes of their own.
 */
export const errorCodes = {
  // AppError factories, notFoundHandler, errorHandler
  NOT_FOUND: { code: 'NOT_FOUND', status: 404, message: 'Resource not found', exposed: true },
  UNAUTHORIZED: {
    code: 'UNAUTHORIZED',
    status: 401,
    message: 'Authentication required',
    exposed: true,
  },
  FORBIDDEN: { code: 'FORBIDDEN', status: 403, message: 'Access denied', exposed: true },
  CONFLICT: { code: 'CONFLICT', status: 409, message: 'Resource already exists', exposed: true },
  INTERNAL_ERROR: {
    code: 'INTERNAL_ERROR',
    status: 500,
    message: 'Internal server error',
    exposed: false,
  },

  // createRouter + notFoundHandler
  METHOD_NOT_ALLOWED: {
    code: 'METHOD_NOT_ALLOWED',
    status: 405,
    message: 'Method not allowed',
    exposed: true,
  },

  // validate / handle (validation, per-route rateLimit)
  VALIDATION_ERROR: {
    code: 'VALIDATION_ERROR',
    status: 422,
    message: 'Validation failed',
    exposed: true,
  },
  RATE_LIMIT_EXCEEDED: {
    code: 'RATE_LIMIT_EXCEEDED',
    status: 429,
    message: 'Too many requests',
    exposed: true,
  },
  RATE_LIMIT_UNAVAILABLE: {
    code: 'RATE_LIMIT_UNAVAILABLE',
    status: 503,
    message: 'Rate limit is unavailable, try again later',
    exposed: true,
  },

  // lifecycle: a route's timeout, load shedding, graceful shutdown, readiness
  HANDLER_TIMEOUT: {
    code: 'HANDLER_TIMEOUT',
    status: 503,
    message: 'The request took too long, try again later',
    exposed: true,
  },
  OVERLOADED: {
    code: 'OVERLOADED',
    status: 503,
    message: 'The server is overloaded, try again later',
    exposed: true,
  },
  SHUTTING_DOWN: {
    code: 'SHUTTING_DOWN',
    status: 503,
    message: 'The server is shutting down, try again later',
    exposed: true,
  },
  NOT_READY: {
    code: 'NOT_READY',
    status: 503,
    message: 'The service is not ready',
    exposed: true,
  },

  // pre-parse guards
  BODY_TOO_DEEP: {
    code: 'BODY_TOO_DEEP',
    status: 400,
    message: 'Request is nested too deeply',
    exposed: true,
  },
  BODY_ARRAY_TOO_LARGE: {
    code: 'BODY_ARRAY_TOO_LARGE',
    status: 400,
    message: 'Request contains an array that is too long',
    exposed: true,
  },
  STRING_TOO_LONG: {
    code: 'STRING_TOO_LONG',
    status: 400,
    message: 'Request contains a string that is too long',
    exposed: true,
  },
  INVALID_CONTENT_TYPE: {
    code: 'INVALID_CONTENT_TYPE',
    status: 415,
    message: 'Content-Type is not supported',
    exposed: true,
  },
  PARAM_POLLUTION: {
    code: 'PARAM_POLLUTION',
    status: 400,
    message: 'Query parameter must not be repeated',
    exposed: true,
  },
  PROTO_POLLUTION: {
    code: 'PROTO_POLLUTION',
    status: 400,
    message: 'Request must not contain a "__proto__" key',
    exposed: true,
  },

  // the host's body parser and other client errors raised by the host framework
  INVALID_JSON: {
    code: 'INVALID_JSON',
    status: 400,
    message: 'Request body is not valid JSON',
    exposed: true,
  },
  PAYLOAD_TOO_LARGE: {
    code: 'PAYLOAD_TOO_LARGE',
    status: 413,
    message: 'Request body is too large',
    exposed: true,
  },
  BAD_REQUEST: { code: 'BAD_REQUEST', status: 400, message: 'Bad request', exposed: true },

  // verifyWebhook
  WEBHOOK_SIGNATURE_MISSING: {
    code: 'WEBHOOK_SIGNATURE_MISSING',
    status: 400,
    message: 'Webhook signature is missing',
    exposed: true,
  },
  WEBHOOK_SIGNATURE_INVALID: {
    code: 'WEBHOOK_SIGNATURE_INVALID',
    status: 401,
    message: 'Webhook signature is invalid',
    exposed: true,
  },
  WEBHOOK_TIMESTAMP_MISSING: {
    code: 'WEBHOOK_TIMESTAMP_MISSING',
    status: 400,
    message: 'Webhook timestamp is missing',
    exposed: true,
  },
  WEBHOOK_TIMESTAMP_EXPIRED: {
    code: 'WEBHOOK_TIMESTAMP_EXPIRED',
    status: 400,
    message: 'Webhook timestamp is outside the tolerance',
    exposed: true,
  },
} as const satisfies Record<string, ErrorCodeEntry>

/** A code shapeguard itself sends (see the error-code table in the README). */
export type ErrorCode = keyof typeof errorCodes

/**
 * Every code shapeguard itself sends, each key equal to its value, for matching without typos.
 * @example if (err.code === ErrorCode.NOT_FOUND) return null
 */
export const ErrorCode: { readonly [K in ErrorCode]: K } = Object.freeze(
  Object.fromEntries(Object.keys(errorCodes).map((code) => [code, code])) as {
    [K in ErrorCode]: K
  },
)

/**
 * The error of a misuse: a value given to a factory, a route or `shapeguard()` that it cannot
 * take (a misspelt key, a wrong type, a limit out of range), a function given as an option that
 * returns what it must not, or a missing optional package. It is found when the option is given,
 * at mount time or when the route is defined (a returning function's, when it is called), and
 * stops the program instead of reaching a client, so it has no status: an error of the class its
 * code names in the misuse registry (misuse-codes.ts), carrying the code, whose message reads
 * `shapeguard: <where>: <what>[, <fix>]`. Every misuse error shapeguard throws is made here;
 * `check-option.ts` holds the common checks.
 * @example throw optionError('SG_ERR_INVALID_OPTION', 'shapeguard: requestId.header: must be a header name')
 */
export function optionError(
  code: MisuseCode,
  message: string,
): Error & { readonly code: MisuseCode } {
  const error = misuseCodes[code].type === 'TypeError' ? new TypeError(message) : new Error(message)
  return Object.assign(error, { code })
}

/**
 * A message without its leading `shapeguard: `, to quote inside another message that has one
 * (`shapeguard: body: expected a zod schema…`, never `body: shapeguard: expected…`).
 * @example unprefixed('shapeguard: arbitrary(): …') // → 'arbitrary(): …'
 */
export function unprefixed(message: string): string {
  return message.startsWith(PREFIX) ? message.slice(PREFIX.length) : message
}

const PREFIX = 'shapeguard: '
