import type { ErrorRequestHandler } from 'express'
import { describe, expect, it, vi } from 'vitest'
import { AppError, errorHandler } from '../../../src/index.js'
import { contextOf } from '../../../src/runtime/core/context.js'
import { resolveConfig } from '../../../src/runtime/middleware/resolve-config.js'
import { mockNext, mockRequest, mockResponse } from '../../../src/testing/index.js'
import { captureLogger } from '../../support/e2e.js'
import { misuse } from '../../support/misuse.js'

describe('errorHandler', () => {
  it('rejects a misspelt option, naming it and listing the options', () => {
    expect(() => errorHandler({ fallbackMesage: 'Oops' } as never)).toThrow(
      misuse(
        'SG_ERR_UNKNOWN_OPTION',
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

  it('is itself an error middleware, for app.use(errorHandler) without the call', () => {
    expect(errorHandler.length).toBe(4)
    const res = mockResponse()
    const next = mockNext()
    ;(errorHandler as unknown as ErrorRequestHandler)(
      AppError.conflict('Order'),
      mockRequest(),
      res,
      next,
    )
    expect(res._result()).toMatchObject({ statusCode: 409, body: { error: { code: 'CONFLICT' } } })
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
    [{ fallbackMessage: 7 }, /errorHandler\(\): fallbackMessage must be a string/],
    [{ onError: 42 }, /errorHandler\(\): onError must be a function/],
    [
      { logger: { error: 'nope' } },
      /errorHandler\(\): logger must have the methods .*missing: debug, info, warn, error/,
    ],
    [{ debug: 'yes' }, /errorHandler\(\): debug must be a boolean/],
  ])('throws at mount time naming a bad option (%#)', (options, message) => {
    expect(() => errorHandler(options as never)).toThrow(message)
  })
})

// A response double written by hand has only what a handler's test needs: status and json.
describe('errorHandler with a hand-made response double', () => {
  const envelope = {
    success: false,
    message: 'User not found',
    error: { code: 'NOT_FOUND', message: 'User not found', details: null },
  }

  it('answers a bare { status, json } through status(x).json(body), throwing and logging nothing else', () => {
    const calls: unknown[] = []
    const res = {
      status(code: number) {
        calls.push(['status', code])
        return this
      },
      json(body: unknown) {
        calls.push(['json', body])
        return this
      },
    }
    const logger = captureLogger()
    errorHandler({ logger })(AppError.notFound('User'), {} as never, res as never, mockNext())
    expect(calls).toEqual([
      ['status', 404],
      ['json', envelope],
    ])
    expect(logger.records.map((r) => r.level)).toEqual(['warn'])
  })

  it('answers a jest-style double, whose json returns nothing', () => {
    const res = { status: vi.fn().mockReturnThis(), json: vi.fn() }
    const logger = captureLogger()
    errorHandler({ logger })(AppError.notFound('User'), mockRequest(), res as never, mockNext())
    expect(res.status).toHaveBeenCalledWith(404)
    expect(res.json).toHaveBeenCalledWith(envelope)
    expect(logger.records.filter((r) => r.level === 'error')).toEqual([])
  })

  it('writes on the double itself when its status() returns nothing to chain on', () => {
    const res = { status: vi.fn(), json: vi.fn() }
    errorHandler({ logger: captureLogger() })(
      new Error('x'),
      mockRequest(),
      res as never,
      mockNext(),
    )
    expect(res.status).toHaveBeenCalledWith(500)
    expect(res.json).toHaveBeenCalledWith(
      expect.objectContaining({ error: expect.objectContaining({ code: 'INTERNAL_ERROR' }) }),
    )
  })

  it('answers in problem details without setting a header the double does not have', () => {
    const res = { status: vi.fn().mockReturnThis(), json: vi.fn() }
    const config = resolveConfig({ errors: { format: 'problem+json' } })
    const req = { app: { locals: { shapeguard: config } } }
    const logger = captureLogger()
    errorHandler({ logger })(AppError.forbidden(), req as never, res as never, mockNext())
    expect(res.status).toHaveBeenCalledWith(403)
    expect(res.json).toHaveBeenCalledWith(
      expect.objectContaining({ status: 403, code: 'FORBIDDEN', detail: 'Access denied' }),
    )
    expect(logger.records.filter((r) => r.level === 'error')).toEqual([])
  })
})
