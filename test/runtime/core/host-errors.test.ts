import { describe, expect, it } from 'vitest'
import { hostClientError } from '../../../src/runtime/core/host-errors.js'

const httpError = (fields: Record<string, unknown>) => Object.assign(new Error('msg'), fields)

describe('hostClientError', () => {
  it.each([
    ['entity.parse.failed', 400, 'INVALID_JSON'],
    ['entity.too.large', 413, 'PAYLOAD_TOO_LARGE'],
    ['parameters.too.many', 413, 'PAYLOAD_TOO_LARGE'],
    ['querystring.parse.rangeError', 400, 'BAD_REQUEST'],
    ['charset.unsupported', 415, 'INVALID_CONTENT_TYPE'],
    ['encoding.unsupported', 415, 'INVALID_CONTENT_TYPE'],
    ['request.aborted', 400, 'BAD_REQUEST'],
    ['request.size.invalid', 400, 'BAD_REQUEST'],
    ['entity.verify.failed', 403, 'FORBIDDEN'],
  ])('maps body-parser %s to %i %s in its own words', (type, status, code) => {
    const mapped = hostClientError(httpError({ type, status, expose: true }))
    expect(mapped).toMatchObject({ status, code })
    expect(mapped?.message).not.toBe('msg')
  })

  it('passes the body limit on as details', () => {
    const err = httpError({ type: 'entity.too.large', status: 413, limit: 100, expose: true })
    expect(hostClientError(err)?.details).toEqual({ limit: 100 })
  })

  it('maps other 4xx errors by status, exposed or not, unknown ones to 400 BAD_REQUEST', () => {
    expect(hostClientError(httpError({ status: 404, expose: true }))?.code).toBe('NOT_FOUND')
    expect(hostClientError(httpError({ status: 404, expose: false }))?.code).toBe('NOT_FOUND')
    expect(hostClientError(httpError({ statusCode: 403 }))?.code).toBe('FORBIDDEN')
    expect(hostClientError(httpError({ status: 416 }))).toEqual({
      code: 'BAD_REQUEST',
      status: 400,
      message: 'Bad request',
      details: null,
    })
  })

  it('keeps the message of an error its creator marked expose, and only then', () => {
    expect(hostClientError(httpError({ status: 404, expose: true }))).toEqual({
      code: 'NOT_FOUND',
      status: 404,
      message: 'msg',
      details: null,
    })
    expect(hostClientError(httpError({ status: 404, expose: false }))?.message).toBe(
      'Resource not found',
    )
    const hidden = Object.defineProperty(httpError({ status: 404, expose: true }), 'message', {
      get: () => 'from a getter',
    })
    expect(hostClientError(hidden)?.message).toBe('Resource not found')
  })

  it("reads status from the error's prototype as http-errors puts it there", () => {
    class NotFound extends Error {}
    Object.assign(NotFound.prototype, { status: 404, statusCode: 404, expose: true })
    expect(hostClientError(new NotFound('x'))?.code).toBe('NOT_FOUND')
  })

  it("answers the router's URIError in its own words", () => {
    const err = Object.assign(new URIError("Failed to decode param '%ZZ'"), {
      status: 400,
      statusCode: 400,
    })
    expect(hostClientError(err)).toEqual({
      code: 'BAD_REQUEST',
      status: 400,
      message: 'Malformed URL encoding in the path',
      details: null,
    })
  })

  it('ignores 5xx, errors without a status and values that are not errors', () => {
    expect(hostClientError(httpError({ status: 500, expose: false }))).toBeUndefined()
    expect(hostClientError(httpError({ status: 4040 }))).toBeUndefined()
    expect(hostClientError(new Error('x'))).toBeUndefined()
    expect(hostClientError('entity.parse.failed')).toBeUndefined()
    expect(hostClientError(null)).toBeUndefined()
    expect(
      hostClientError({ type: 'entity.parse.failed', status: 400, expose: true }),
    ).toBeUndefined()
    expect(hostClientError({ status: 400, expose: true, message: 'secret' })).toBeUndefined()
  })

  it('never looks a type up on the prototype of its table', () => {
    for (const type of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(hostClientError(httpError({ type, status: 400 }))).toMatchObject({
        code: 'BAD_REQUEST',
        message: 'Bad request',
      })
    }
  })

  it('never runs a getter and survives a throwing Proxy', () => {
    const err = new Error('x')
    Object.defineProperty(err, 'status', {
      get() {
        throw new Error('getter ran')
      },
    })
    expect(hostClientError(err)).toBeUndefined()
    const trap = () => {
      throw new Error('trap ran')
    }
    const proxy = new Proxy(new Error('x'), {
      get: trap,
      getPrototypeOf: trap,
      getOwnPropertyDescriptor: trap,
    })
    expect(hostClientError(proxy)).toBeUndefined()
  })
})
