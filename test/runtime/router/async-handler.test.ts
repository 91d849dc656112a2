import { describe, expect, it } from 'vitest'
import { AppError, asyncHandler } from '../../../src/index.js'
import { mockNext, mockRequest, mockResponse } from '../../../src/testing/index.js'

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('asyncHandler', () => {
  it('forwards a rejection to next', async () => {
    const err = new Error('x')
    const next = mockNext()
    asyncHandler(async () => {
      throw err
    })(mockRequest(), mockResponse(), next)
    await settle()
    expect(next.error).toBe(err)
  })

  it('forwards a synchronous throw', () => {
    const next = mockNext()
    asyncHandler(() => {
      throw AppError.forbidden()
    })(mockRequest(), mockResponse(), next)
    expect((next.error as AppError).code).toBe('FORBIDDEN')
  })

  it.each([[null], [undefined], ['route'], [0]])(
    'turns a rejection with %j into an error, never "no error" or next("route")',
    async (value) => {
      const next = mockNext()
      asyncHandler(() => Promise.reject(value))(mockRequest(), mockResponse(), next)
      await settle()
      expect(next.called).toBe(true)
      expect(next.error).toBeInstanceOf(AppError)
      expect((next.error as AppError).cause).toBe(value)
    },
  )

  it('does not call next when the handler answers', async () => {
    const res = mockResponse()
    const next = mockNext()
    asyncHandler(async (_req, r) => r.ok({ data: 1 }))(mockRequest(), res, next)
    await settle()
    expect(next.called).toBe(false)
    expect(res._result().statusCode).toBe(200)
  })
})
