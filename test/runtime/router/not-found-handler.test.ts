import { describe, expect, it } from 'vitest'
import { type AppError, notFoundHandler } from '../../../src/index.js'
import { mockNext, mockRequest, mockResponse } from '../../../src/testing/index.js'
import { misuse } from '../../support/misuse.js'

describe('notFoundHandler', () => {
  it('rejects a misspelt option, naming it and listing the options, and a message not a string', () => {
    expect(() => notFoundHandler({ mesage: 'Nothing here' } as never)).toThrow(
      misuse(
        'SG_ERR_UNKNOWN_OPTION',
        'shapeguard: notFoundHandler(): mesage is not an option (message)',
      ),
    )
    expect(() => notFoundHandler({ message: 404 } as never)).toThrow(
      'shapeguard: notFoundHandler(): message must be a string',
    )
  })

  it('passes a 404 NOT_FOUND naming method and path on', () => {
    const next = mockNext()
    notFoundHandler()(mockRequest({ method: 'post', url: '/a/b?c=d' }), mockResponse(), next)
    expect(next.error).toMatchObject({
      code: 'NOT_FOUND',
      statusCode: 404,
      message: 'Cannot POST /a/b',
    })
  })

  it('uses the fixed message when given', () => {
    const next = mockNext()
    notFoundHandler({ message: 'Nothing here' })(mockRequest(), mockResponse(), next)
    expect((next.error as AppError).message).toBe('Nothing here')
  })

  it('answers 405 with Allow for the methods a createRouter recorded on the request', () => {
    const next = mockNext()
    const req = mockRequest({ method: 'delete', url: '/x' })
    const res = mockResponse()
    // What a createRouter of any copy of the package notes: the method tables of the routes.
    ;(res as unknown as Record<symbol, unknown>)[Symbol.for('shapeguard.context')] = {
      allowed: [
        { get: true, _all: true },
        { get: true, post: true, put: false },
      ],
    }
    notFoundHandler({ message: 'Nothing here' })(req, res, next)
    expect(next.error).toMatchObject({
      code: 'METHOD_NOT_ALLOWED',
      statusCode: 405,
      message: 'Method DELETE is not allowed on this route',
      details: { allowed: ['GET', 'HEAD', 'POST'] },
    })
    expect(res._result().headers.allow).toBe('GET, HEAD, POST')
  })

  it('never answers 405 to OPTIONS', () => {
    const next = mockNext()
    const req = mockRequest({ method: 'options', url: '/x' })
    const res = mockResponse()
    ;(res as unknown as Record<symbol, unknown>)[Symbol.for('shapeguard.context')] = {
      allowed: { get: true },
    }
    notFoundHandler()(req, res, next)
    expect(next.error).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 })
  })
})
