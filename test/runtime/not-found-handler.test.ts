import { describe, expect, it } from 'vitest'
import { type AppError, notFoundHandler } from '../../src/index.js'
import { mockNext, mockRequest, mockResponse } from '../../src/testing/index.js'

describe('notFoundHandler', () => {
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
})
