import type { JsonSchema } from '../../engine/json-schema/json-schema-types.js'
import { type EnvelopeNames, envelopeNames } from '../../shared/envelope-shape.js'
import { errorCodes } from '../../shared/error-codes.js'
import {
  defaultErrorStatuses,
  type ErrorCases,
  unavailableCodes,
} from '../../shared/error-statuses.js'
import { problemType } from '../../shared/problem-details.js'
import type { EnvelopeShape, ErrorFormat } from './types.js'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

function envelope(
  fields: EnvelopeNames,
  success: boolean,
  extra: Record<string, JsonSchema>,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {}
  for (const name of fields.success) properties[name] = { type: 'boolean', const: success }
  for (const name of fields.message) properties[name] = { type: 'string' }
  Object.assign(properties, extra)
  return { type: 'object', properties, required: Object.keys(properties) }
}

const errorObject = (details: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: {
    code: { type: 'string', description: 'Stable, safe to match on.' },
    message: { type: 'string' },
    details,
  },
  required: ['code', 'message', 'details'],
})

/** How a document writes error answers: the app's error format, envelope shape and type base. */
export interface ErrorStyle {
  readonly format: ErrorFormat
  readonly shape: EnvelopeShape | undefined
  readonly problemTypeBase: string | undefined
}

/** The shared components the error answers refer to, in the app's error format. */
export function errorComponents(style: ErrorStyle): Record<string, JsonSchema> {
  return style.format === 'problem+json'
    ? problemComponents(style.problemTypeBase)
    : envelopeComponents(style.shape)
}

/**
 * The error envelope (`ErrorEnvelope`), its `details` for validation errors (`ValidationIssue`)
 * and for 429 (`RateLimitErrorEnvelope`), shaped by the app's `response.shape`.
 */
function envelopeComponents(shape: EnvelopeShape | undefined): Record<string, JsonSchema> {
  const fields = envelopeNames(shape)
  const anyDetails: JsonSchema = {
    description: 'Extra information: an object, a string, or null when none.',
    type: ['object', 'array', 'string', 'null'],
  }
  return {
    ErrorEnvelope: envelope(fields, false, { error: errorObject(anyDetails) }),
    ValidationIssue: {
      type: 'object',
      properties: {
        field: { type: 'string', description: 'Dotted path inside the request part, or the part.' },
        message: { type: 'string' },
        code: { type: 'string', description: 'Sent only with `exposeSchemaCodes`.' },
      },
      required: ['field', 'message'],
    },
    ValidationErrorEnvelope: envelope(fields, false, {
      error: errorObject({
        description: 'The first issue, or every issue with `allErrors`; null when hidden.',
        anyOf: [
          ref('ValidationIssue'),
          { type: 'array', items: ref('ValidationIssue') },
          { type: 'null' },
        ],
      }),
    }),
    RateLimitErrorEnvelope: envelope(fields, false, {
      error: errorObject({
        type: 'object',
        properties: {
          retryAfter: { type: 'integer', minimum: 1, description: 'Seconds to wait.' },
        },
        required: ['retryAfter'],
      }),
    }),
  }
}

const withMembers = (properties: Record<string, JsonSchema>): JsonSchema => ({
  allOf: [ref('ProblemDetails'), { type: 'object', properties, required: Object.keys(properties) }],
})

/**
 * RFC 9457 problem details (`ProblemDetails`), with the validation issues of a 422
 * (`ValidationProblem`, `ValidationIssue`) and the `retryAfter` of a 429 (`RateLimitProblem`).
 */
function problemComponents(base: string | undefined): Record<string, JsonSchema> {
  const type: JsonSchema =
    base === undefined
      ? {
          type: 'string',
          format: 'uri-reference',
          description: 'The problem type: `about:blank`, whose meaning is the status (and `code`).',
          examples: ['about:blank'],
        }
      : {
          type: 'string',
          format: 'uri-reference',
          description: `The problem type: \`${base}\` followed by the code in lower case with dashes.`,
          examples: [problemType('VALIDATION_ERROR', base)],
        }
  return {
    ProblemDetails: {
      type: 'object',
      description:
        "An error answer as RFC 9457 problem details (`application/problem+json`); other members hold the error's details.",
      properties: {
        type,
        title: { type: 'string', description: "The status's reason phrase." },
        status: { type: 'integer', minimum: 400, maximum: 599, description: 'The HTTP status.' },
        detail: { type: 'string', description: 'What went wrong, for a person to read.' },
        instance: {
          type: 'string',
          format: 'uri-reference',
          description: 'The path of the request that failed.',
        },
        code: { type: 'string', description: 'Stable, safe to match on.' },
        requestId: { type: 'string', description: 'The request ID, unless they are disabled.' },
      },
      required: ['type', 'title', 'status', 'detail', 'code'],
    },
    ValidationIssue: {
      type: 'object',
      properties: {
        field: { type: 'string', description: 'Dotted path inside the request part, or the part.' },
        message: { type: 'string' },
        code: { type: 'string', description: 'Sent only with `exposeSchemaCodes`.' },
        in: { enum: ['body', 'query', 'params', 'headers'], description: 'The request part.' },
      },
      required: ['field', 'message'],
    },
    ValidationProblem: withMembers({
      errors: {
        description: 'The first issue, or every issue with `allErrors`.',
        type: 'array',
        items: ref('ValidationIssue'),
      },
    }),
    RateLimitProblem: withMembers({
      retryAfter: { type: 'integer', minimum: 1, description: 'Seconds to wait.' },
    }),
  }
}

/** The success envelope of an operation around its `data` schema. */
export function successEnvelope(shape: EnvelopeShape | undefined, data: JsonSchema): JsonSchema {
  const fields = envelopeNames(shape)
  const extra: Record<string, JsonSchema> = {}
  for (const name of fields.data) extra[name] = data
  return envelope(fields, true, extra)
}

/**
 * The codes shapeguard itself sends with a status on a guarded route (verifyWebhook's codes
 * belong to webhook routes, which generateOpenAPI does not see).
 */
export function codesAt(status: number): string[] {
  return Object.values(errorCodes)
    .filter(
      (e) =>
        e.status === status &&
        (e as { reserved?: string }).reserved === undefined &&
        !e.code.startsWith('WEBHOOK_'),
    )
    .map((e) => e.code)
}

/** The codes of a response's description: ` Codes: \`A\`, \`B\`.` */
const codeList = (codes: readonly string[]): string =>
  codes.length > 0 ? ` Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.` : ''

const codesOf = (status: number) => codeList(codesAt(status))

/** The schema names and the media type of the error answers in each format. */
export const formats = {
  envelope: {
    media: 'application/json',
    error: 'ErrorEnvelope',
    validation: 'ValidationErrorEnvelope',
    rateLimit: 'RateLimitErrorEnvelope',
  },
  'problem+json': {
    media: 'application/problem+json',
    error: 'ProblemDetails',
    validation: 'ValidationProblem',
    rateLimit: 'RateLimitProblem',
  },
} as const

const intHeader = (description: string) => ({
  description,
  schema: { type: 'integer', minimum: 0 },
})

/**
 * The shared error responses (`components/responses`), in the app's error format, each narrowing
 * `code` to the codes shapeguard sends with its status, so a typed client narrows on it.
 */
export function errorResponses(format: ErrorFormat): Record<string, unknown> {
  const names = formats[format]
  const content = (kind: 'error' | 'validation' | 'rateLimit', status: number) => ({
    [names.media]: { schema: { allOf: [ref(names[kind]), codeIn(format, codesAt(status))] } },
  })
  const response = (
    description: string,
    status: number,
    kind: 'error' | 'validation' | 'rateLimit' = 'error',
  ) => ({ description: `${description}${codesOf(status)}`, content: content(kind, status) })
  return {
    BadRequest: response(
      'The request was refused before validation (depth, array or string length, repeated query keys, malformed body).',
      400,
    ),
    PayloadTooLarge: response("The body is larger than the body parser's limit.", 413),
    UnsupportedMediaType: response(
      "The body's Content-Type is missing or not one the app parses.",
      415,
    ),
    UploadTooLarge: response(
      "The body, or a file in it, is larger than its limit (a file field's `maxBytes`).",
      413,
    ),
    UnsupportedUpload: response(
      "The body is not multipart/form-data, or a file's type (sniffed from its content where the format has a signature) is not one its field accepts.",
      415,
    ),
    Unauthorized: {
      ...response('Authentication is required.', 401),
      headers: {
        'WWW-Authenticate': {
          description: 'How to authenticate: one challenge per scheme the route accepts.',
          schema: { type: 'string' },
        },
      },
    },
    Forbidden: response('Access is denied.', 403),
    ValidationFailed: response('A request part failed its schema.', 422, 'validation'),
    TooManyRequests: {
      ...response("The route's rate limit was reached.", 429, 'rateLimit'),
      headers: {
        'Retry-After': intHeader('Seconds until the window ends.'),
        'RateLimit-Limit': intHeader('Requests allowed per window.'),
        'RateLimit-Remaining': intHeader('Requests left in the window.'),
        'RateLimit-Reset': intHeader('Seconds until the window ends.'),
      },
    },
    InternalError: response('An unexpected error.', 500),
    ...unavailableResponses(format),
  }
}

// The 503 answers shapeguard sends, by code: the name of their shared response and why.
const unavailable: Readonly<Record<string, { readonly name: string; readonly why: string }>> = {
  RATE_LIMIT_UNAVAILABLE: {
    name: 'RateLimitUnavailable',
    why: 'the rate-limit store did not answer, and the route does not fail open',
  },
  HANDLER_TIMEOUT: {
    name: 'HandlerTimeout',
    why: "the route's timeout passed before it answered (its handler's work is aborted through `req.signal`)",
  },
  OVERLOADED: {
    name: 'Overloaded',
    why: 'the server is past its load limits and refused the request before any work',
  },
}

/**
 * The shared response of a route's 503 answers with these codes (unavailableCodes' order):
 * `ServiceUnavailable` for the rate limit's alone (its name from before the others), else their
 * names joined with `Or` (`HandlerTimeoutOrOverloaded`).
 */
export function unavailableName(codes: readonly string[]): string {
  if (codes.length === 1 && codes[0] === 'RATE_LIMIT_UNAVAILABLE') return 'ServiceUnavailable'
  return codes.map((code) => unavailable[code]!.name).join('Or')
}

// Every combination of the 503 codes, by the name of its shared response.
const combinations: ReadonlyMap<string, readonly string[]> = (() => {
  const all = Object.keys(unavailable)
  const out = new Map<string, readonly string[]>()
  for (let mask = 1; mask < 1 << all.length; mask++) {
    const codes = all.filter((_, i) => (mask & (1 << i)) !== 0)
    out.set(unavailableName(codes), codes)
  }
  return out
})()

/** The codes a shared response narrows `code` to: a 503's own, else every code of its status. */
export function sharedCodes(name: string, status: number): readonly string[] {
  return combinations.get(name) ?? codesAt(status)
}

// The 503 responses (the document keeps those a route uses), with `Retry-After` where a timeout
// or load shedding may answer.
function unavailableResponses(format: ErrorFormat): Record<string, unknown> {
  const names = formats[format]
  const out: Record<string, unknown> = {}
  for (const [name, codes] of combinations) {
    const why = codes.map((code) => unavailable[code]!.why).join('; or ')
    const response: Record<string, unknown> = {
      description: `Unavailable: ${why}.${codeList(codes)}`,
      content: {
        [names.media]: { schema: { allOf: [ref(names.error), codeIn(format, codes)] } },
      },
    }
    if (codes.some((code) => code !== 'RATE_LIMIT_UNAVAILABLE'))
      response.headers = {
        'Retry-After': intHeader(
          "Seconds to wait before trying again (the route's `timeout.retryAfter`, or `overload.retryAfter`).",
        ),
      }
    out[name] = response
  }
  return out
}

/** A schema that narrows an error answer's `code` to `codes` (one: a `const`). */
export function codeIn(format: ErrorFormat, codes: readonly string[]): JsonSchema {
  const code: JsonSchema =
    codes.length === 1 ? { type: 'string', const: codes[0] } : { type: 'string', enum: [...codes] }
  const inner: JsonSchema = { type: 'object', properties: { code }, required: ['code'] }
  return format === 'problem+json'
    ? inner
    : { type: 'object', properties: { error: inner }, required: ['error'] }
}

/** References to the error responses an operation documents: what the runtime can answer. */
export function errorRefs(cases: ErrorCases): Record<string, unknown> {
  const names: Record<number, string> = {
    400: 'BadRequest',
    401: 'Unauthorized',
    403: 'Forbidden',
    413: cases.files ? 'UploadTooLarge' : 'PayloadTooLarge',
    415: cases.files ? 'UnsupportedUpload' : 'UnsupportedMediaType',
    422: 'ValidationFailed',
    429: 'TooManyRequests',
    500: 'InternalError',
    503: unavailableName(unavailableCodes(cases)),
  }
  return Object.fromEntries(
    defaultErrorStatuses(cases).map((status) => [
      String(status),
      { $ref: `#/components/responses/${names[status]}` },
    ]),
  )
}
