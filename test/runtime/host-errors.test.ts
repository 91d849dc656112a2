import { describe, expect, it } from 'vitest'
import { hostClientError } from '../../src/runtime/host-errors.js'

const httpError = (fields: Record<string, unknown>) => Object.assign(new Error('msg'), fields)

describe('hostClientError', () => {
  it.each([
    ['entity.parse.failed', 400, 'INVALID_JSON'],
    ['entity.too.large', 413, 'PAYLOAD_TOO_LARGE'],
    ['parameters.too.many', 413, 'PAYLOAD_TOO_LARGE'],
    ['charset.unsupported', 415, 'INVALID_CONTENT_TYPE'],
    ['encoding.unsupported', 415, 'INVALID_CONTENT_TYPE'],
    ['request.aborted', 400, 'BAD_REQUEST'],
    ['request.size.invalid', 400, 'BAD_REQUEST'],
  ])('maps body-parser %s to %i %s', (type, status, code) => {
    expect(hostClientError(httpError({ type, status, expose: true }))).toMatchObject({
      status,
      code,
    })
  })

  it('passes the body limit on as details', () => {
    const err = httpError({ type: 'entity.too.large', status: 413, limit: 100, expose: true })
    expect(hostClientError(err)?.details).toEqual({ limit: 100 })
  })

  it('maps other exposed 4xx http errors by status, unknown ones to 400 BAD_REQUEST', () => {
    expect(hostClientError(httpError({ status: 404, expose: true }))?.code).toBe('NOT_FOUND')
    expect(hostClientError(httpError({ statusCode: 403, expose: true }))?.code).toBe('FORBIDDEN')
    expect(hostClientError(httpError({ status: 416, expose: true }))).toMatchObject({
      code: 'BAD_REQUEST',
      status: 400,
      message: 'msg',
    })
  })

  it('ignores 5xx, unexposed errors and plain values', () => {
    expect(hostClientError(httpError({ status: 500, expose: false }))).toBeUndefined()
    expect(hostClientError(httpError({ status: 404 }))).toBeUndefined()
    expect(hostClientError(new Error('x'))).toBeUndefined()
    expect(hostClientError('entity.parse.failed')).toBeUndefined()
    expect(hostClientError(null)).toBeUndefined()
  })
})
