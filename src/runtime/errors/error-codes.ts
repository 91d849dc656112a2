/**
 * Every error code shapeguard itself sends, with its HTTP status. The key equals the code; codes
 * are never reused for another meaning. `AppError.custom`, `AppError.define`, `res.fail` and
 * subclasses may use codes of their own.
 */
export const errorCodes = {
  // AppError factories, notFoundHandler, errorHandler
  NOT_FOUND: { code: 'NOT_FOUND', status: 404 },
  UNAUTHORIZED: { code: 'UNAUTHORIZED', status: 401 },
  FORBIDDEN: { code: 'FORBIDDEN', status: 403 },
  CONFLICT: { code: 'CONFLICT', status: 409 },
  INTERNAL_ERROR: { code: 'INTERNAL_ERROR', status: 500 },

  // createRouter
  METHOD_NOT_ALLOWED: { code: 'METHOD_NOT_ALLOWED', status: 405 },

  // validate / handle
  VALIDATION_ERROR: { code: 'VALIDATION_ERROR', status: 422 },
  RATE_LIMIT_EXCEEDED: { code: 'RATE_LIMIT_EXCEEDED', status: 429 },

  // pre-parse guards
  BODY_TOO_DEEP: { code: 'BODY_TOO_DEEP', status: 400 },
  BODY_ARRAY_TOO_LARGE: { code: 'BODY_ARRAY_TOO_LARGE', status: 400 },
  STRING_TOO_LONG: { code: 'STRING_TOO_LONG', status: 400 },
  INVALID_CONTENT_TYPE: { code: 'INVALID_CONTENT_TYPE', status: 415 },
  PARAM_POLLUTION: { code: 'PARAM_POLLUTION', status: 400 },
  PROTO_POLLUTION: { code: 'PROTO_POLLUTION', status: 400 },

  // the host's body parser and other client errors raised by the host framework
  INVALID_JSON: { code: 'INVALID_JSON', status: 400 },
  PAYLOAD_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', status: 413 },
  BAD_REQUEST: { code: 'BAD_REQUEST', status: 400 },

  // verifyWebhook
  WEBHOOK_SIGNATURE_MISSING: { code: 'WEBHOOK_SIGNATURE_MISSING', status: 400 },
  WEBHOOK_SIGNATURE_INVALID: { code: 'WEBHOOK_SIGNATURE_INVALID', status: 401 },
  WEBHOOK_TIMESTAMP_MISSING: { code: 'WEBHOOK_TIMESTAMP_MISSING', status: 400 },
  WEBHOOK_TIMESTAMP_EXPIRED: { code: 'WEBHOOK_TIMESTAMP_EXPIRED', status: 400 },
} as const satisfies Record<string, { code: string; status: number }>

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
