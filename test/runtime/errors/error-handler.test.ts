import { describe, expect, it } from 'vitest'
import { AppError, errorHandler } from '../../../src/index.js'
import { contextOf } from '../../../src/runtime/core/context.js'
import { mockNext, mockRequest, mockResponse } from '../../../src/testing/index.js'
import { captureLogger } from '../../e2e/support.js'

describe('errorHandler', () => {
  it('rejects a misspelt option, naming it and listing the options', () => {
    expect(() => errorHandler({ fallbackMesage: 'Oops' } as never)).toThrow(
      new TypeError(
        'shapeguard: errorHandler(): fallbackMesage is not an option (fallbackMessage, onError, logger, debug)',
      ),
    )
  })

  it('is an error middleware (four parameters) and never calls next', () => {
    const handler = errorHandler({ logger: captureLogger() })
    expect(handler.length).toBe(4)
    const next = mockNext()
    handler(AppError.notFound(), mockRequest(), mockResponse(), next)
    expect(next.called).toBe(false)
  })

  it('answers an AppError with a status outside 400-599 as 500', () => {
    const res = mockResponse()
    errorHandler({ logger: captureLogger() })(
      AppError.custom('ODD', 'odd', 302),
      mockRequest(),
      res,
      mockNext(),
    )
    expect(res._result().statusCode).toBe(500)
  })

  it('writes nothing when the headers were already sent', () => {
    const res = mockResponse()
    res.status(200).json({ done: true })
    const logger = captureLogger()
    errorHandler({ logger })(new Error('late'), mockRequest(), res, mockNext())
    expect(res._result()).toMatchObject({ statusCode: 200, body: { done: true } })
    expect(logger.records).toHaveLength(1)
  })

  it('sends the fixed fallback when writing the error response throws', () => {
    const res = mockResponse()
    res.json = () => {
      throw new Error('json broke')
    }
    errorHandler({ logger: captureLogger() })(AppError.forbidden(), mockRequest(), res, mockNext())
    const result = res._result()
    expect(result.statusCode).toBe(500)
    expect(JSON.parse(String(result.body))).toEqual({
      success: false,
      message: 'Something went wrong',
      error: { code: 'INTERNAL_ERROR', message: 'Something went wrong', details: null },
    })
  })

  it('survives when even the fallback cannot be written', () => {
    const res = mockResponse()
    res.json = () => {
      throw new Error('json broke')
    }
    res.setHeader = () => {
      throw new Error('setHeader broke')
    }
    expect(() =>
      errorHandler({ logger: captureLogger() })(new Error('x'), mockRequest(), res, mockNext()),
    ).not.toThrow()
  })

  it("reads shapeguard()'s configuration from app.locals when the response has none", () => {
    const logger = captureLogger()
    const req = mockRequest({
      locals: {
        shapeguard: {
          debug: false,
          response: {
            shape: {
              error: (code: string, message: string) => ({ failed: true, code, message }),
            },
          },
          errors: { fallbackMessage: 'Later', onError: undefined },
        },
      },
    })
    const res = mockResponse()
    contextOf(res).config = undefined
    errorHandler({ logger })(new Error('secret'), req, res, mockNext())
    expect(res._result().body).toEqual({ failed: true, code: 'INTERNAL_ERROR', message: 'Later' })
    expect(logger.records).toHaveLength(1)
  })

  it.each([
    [{ fallbackMessage: 7 }, /errorHandler: fallbackMessage must be a string/],
    [{ onError: 42 }, /errorHandler: onError must be a function/],
    [
      { logger: { error: 'nope' } },
      /errorHandler: logger must have the methods .*missing: debug, info, warn, error/,
    ],
    [{ debug: 'yes' }, /errorHandler: debug must be a boolean/],
  ])('throws at mount time naming a bad option (%#)', (options, message) => {
    expect(() => errorHandler(options as never)).toThrow(message)
  })
})
