import { describe, expectTypeOf, it } from 'vitest'
import type { AppErrorCode, ErrorCode } from '../../src/index.js'

describe('ErrorCode', () => {
  it('is exactly the registry of codes', () => {
    expectTypeOf<ErrorCode>().toEqualTypeOf<
      | 'VALIDATION_ERROR'
      | 'NOT_FOUND'
      | 'UNAUTHORIZED'
      | 'FORBIDDEN'
      | 'CONFLICT'
      | 'INTERNAL_ERROR'
      | 'METHOD_NOT_ALLOWED'
      | 'BODY_TOO_DEEP'
      | 'BODY_ARRAY_TOO_LARGE'
      | 'STRING_TOO_LONG'
      | 'INVALID_CONTENT_TYPE'
      | 'PARAM_POLLUTION'
      | 'PROTO_POLLUTION'
      | 'RATE_LIMIT_EXCEEDED'
      | 'RATE_LIMIT_UNAVAILABLE'
      | 'HANDLER_TIMEOUT'
      | 'OVERLOADED'
      | 'SHUTTING_DOWN'
      | 'NOT_READY'
      | 'WEBHOOK_SIGNATURE_MISSING'
      | 'WEBHOOK_SIGNATURE_INVALID'
      | 'WEBHOOK_TIMESTAMP_MISSING'
      | 'WEBHOOK_TIMESTAMP_EXPIRED'
      | 'INVALID_JSON'
      | 'PAYLOAD_TOO_LARGE'
      | 'BAD_REQUEST'
    >()
  })

  it('AppErrorCode accepts the registry and codes of your own', () => {
    expectTypeOf<'NOT_FOUND'>().toExtend<AppErrorCode>()
    expectTypeOf<'MY_CODE'>().toExtend<AppErrorCode>()
  })
})

describe('ErrorCode (the object)', () => {
  it('maps each code to its own literal', async () => {
    const { ErrorCode } = await import('../../src/index.js')
    expectTypeOf(ErrorCode.NOT_FOUND).toEqualTypeOf<'NOT_FOUND'>()
    expectTypeOf(ErrorCode).toEqualTypeOf<{ readonly [K in ErrorCode]: K }>()
  })
})
