import type { JsonSchema } from '../../engine/json-schema/json-schema-types.js'
import { errorCodes } from '../../shared/error-codes.js'
import type { EnvelopeShape } from './types.js'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/** The fields of the default envelope, renamed by `response.shape` when given. */
interface Fields {
  readonly success: readonly string[]
  readonly message: readonly string[]
  readonly data: readonly string[]
}

function fieldsOf(shape: EnvelopeShape | undefined): Fields {
  if (shape === undefined) return { success: ['success'], message: ['message'], data: ['data'] }
  const pick = (token: string) =>
    Object.entries(shape)
      .filter(([, t]) => t === token)
      .map(([name]) => name)
  return { success: pick('{success}'), message: pick('{message}'), data: pick('{data}') }
}

function envelope(fields: Fields, success: boolean, extra: Record<string, JsonSchema>): JsonSchema {
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

/**
 * The shared components of every document: the error envelope (`ErrorEnvelope`), its `details`
 * for validation errors (`ValidationIssue`) and for 429 (`RateLimitErrorEnvelope`), shaped by the
 * app's `response.shape`.
 */
export function envelopeComponents(shape: EnvelopeShape | undefined): Record<string, JsonSchema> {
  const fields = fieldsOf(shape)
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

/** The success envelope of an operation around its `data` schema. */
export function successEnvelope(shape: EnvelopeShape | undefined, data: JsonSchema): JsonSchema {
  const fields = fieldsOf(shape)
  const extra: Record<string, JsonSchema> = {}
  for (const name of fields.data) extra[name] = data
  return envelope(fields, true, extra)
}

/**
 * The codes shapeguard itself sends with a status on a guarded route, for the response's
 * description (verifyWebhook's codes belong to webhook routes, which generateOpenAPI does not see).
 */
function codesOf(status: number): string {
  const codes = Object.values(errorCodes)
    .filter(
      (e) =>
        e.status === status &&
        (e as { reserved?: string }).reserved === undefined &&
        !e.code.startsWith('WEBHOOK_'),
    )
    .map((e) => `\`${e.code}\``)
  return codes.length > 0 ? ` Codes: ${codes.join(', ')}.` : ''
}

const json = (schema: string) => ({ 'application/json': { schema: ref(schema) } })

const intHeader = (description: string) => ({
  description,
  schema: { type: 'integer', minimum: 0 },
})

/** The shared error responses (`components/responses`), each with the error envelope. */
export function errorResponses(): Record<string, unknown> {
  return {
    BadRequest: {
      description: `The request was refused before validation (depth, array or string length, repeated query keys, malformed body).${codesOf(400)}`,
      content: json('ErrorEnvelope'),
    },
    PayloadTooLarge: {
      description: `The body is larger than the body parser's limit.${codesOf(413)}`,
      content: json('ErrorEnvelope'),
    },
    UnsupportedMediaType: {
      description: `The body's Content-Type is missing or not one the app parses.${codesOf(415)}`,
      content: json('ErrorEnvelope'),
    },
    Unauthorized: {
      description: `Authentication is required.${codesOf(401)}`,
      content: json('ErrorEnvelope'),
    },
    Forbidden: { description: `Access is denied.${codesOf(403)}`, content: json('ErrorEnvelope') },
    ValidationFailed: {
      description: `A request part failed its schema.${codesOf(422)}`,
      content: json('ValidationErrorEnvelope'),
    },
    TooManyRequests: {
      description: `The route's rate limit was reached.${codesOf(429)}`,
      headers: {
        'Retry-After': intHeader('Seconds until the window ends.'),
        'RateLimit-Limit': intHeader('Requests allowed per window.'),
        'RateLimit-Remaining': intHeader('Requests left in the window.'),
        'RateLimit-Reset': intHeader('Seconds until the window ends.'),
      },
      content: json('RateLimitErrorEnvelope'),
    },
    InternalError: {
      description: `An unexpected error.${codesOf(500)}`,
      content: json('ErrorEnvelope'),
    },
    ServiceUnavailable: {
      description: `The rate-limit store did not answer, and the route does not fail open.${codesOf(503)}`,
      content: json('ErrorEnvelope'),
    },
  }
}

/** Which error responses apply to an operation, besides the ones every operation has. */
export interface ErrorCases {
  /** Security applies: 401 and 403. */
  readonly secured: boolean
  /** The method carries a body (POST, PUT, PATCH) or the route has a body schema: 413 and 415. */
  readonly body: boolean
  /** `rateLimit` is set: 429. */
  readonly rateLimited: boolean
  /** `rateLimit` has a store and `failOpen: false`: 503. */
  readonly failsClosed: boolean
}

/** References to the error responses an operation documents: what the runtime can answer. */
export function errorRefs(cases: ErrorCases): Record<string, unknown> {
  const r = (name: string) => ({ $ref: `#/components/responses/${name}` })
  const out: Record<string, unknown> = { '400': r('BadRequest') }
  if (cases.secured) {
    out['401'] = r('Unauthorized')
    out['403'] = r('Forbidden')
  }
  if (cases.body) {
    out['413'] = r('PayloadTooLarge')
    out['415'] = r('UnsupportedMediaType')
  }
  out['422'] = r('ValidationFailed')
  if (cases.rateLimited) out['429'] = r('TooManyRequests')
  out['500'] = r('InternalError')
  if (cases.failsClosed) out['503'] = r('ServiceUnavailable')
  return out
}
