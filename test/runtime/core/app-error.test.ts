import { describe, expect, it } from 'vitest'
import { AppError, isAppError } from '../../../src/index.js'

describe('AppError', () => {
  it('carries code, message, statusCode, details, isAppError and isOperational', () => {
    const err = new AppError('OUT_OF_STOCK', 'Out of stock', 409, { sku: 'A1' })
    expect(err).toBeInstanceOf(Error)
    expect(err).toMatchObject({
      code: 'OUT_OF_STOCK',
      message: 'Out of stock',
      statusCode: 409,
      details: { sku: 'A1' },
      isAppError: true,
      isOperational: true,
      name: 'AppError',
    })
    expect(new AppError('X', 'x', 400).details).toBeNull()
  })

  it('keeps the cause it is given', () => {
    const cause = new Error('socket closed')
    expect(new AppError('UPSTREAM', 'Upstream failed', 502, null, { cause }).cause).toBe(cause)
  })

  it('names subclasses after themselves and treats them as AppErrors', () => {
    class PaymentError extends AppError {}
    const err = new PaymentError('PAYMENT', 'Declined', 402)
    expect(err.name).toBe('PaymentError')
    expect(isAppError(err)).toBe(true)
    expect(AppError.fromUnknown(err)).toBe(err)
  })

  it.each([
    [AppError.notFound('User'), 404, 'NOT_FOUND', 'User not found'],
    [AppError.notFound(), 404, 'NOT_FOUND', 'Resource not found'],
    [AppError.unauthorized(), 401, 'UNAUTHORIZED', 'Authentication required'],
    [AppError.unauthorized('Token expired'), 401, 'UNAUTHORIZED', 'Token expired'],
    [AppError.forbidden(), 403, 'FORBIDDEN', 'Access denied'],
    [AppError.conflict('Email'), 409, 'CONFLICT', 'Email already exists'],
    [AppError.conflict(), 409, 'CONFLICT', 'Resource already exists'],
    [AppError.internal('Cache offline'), 500, 'INTERNAL_ERROR', 'Cache offline'],
    [AppError.custom('TEAPOT', 'Short and stout', 418), 418, 'TEAPOT', 'Short and stout'],
  ])('factory gives %#: status, code and message', (err, status, code, message) => {
    expect([err.statusCode, err.code, err.message]).toEqual([status, code, message])
    expect(err.isOperational).toBe(true)
  })

  it('validation puts one issue as an object and several as the array', () => {
    const one = { field: 'email', message: 'Invalid email' }
    const two = { field: 'age', message: 'Too small' }
    expect(AppError.validation([one]).details).toEqual(one)
    expect(AppError.validation(one).details).toEqual(one)
    expect(AppError.validation([one, two]).details).toEqual([one, two])
    expect(AppError.validation([one]).statusCode).toBe(422)
    expect(AppError.validation([one]).message).toBe('Validation failed')
  })

  it('define makes a typed factory with a default and an overridable message', () => {
    const RateLimited = AppError.define<{ retryAfter: number }>('SLOW_DOWN', 429, 'Slow down')
    const err = RateLimited({ retryAfter: 3 })
    expect(err).toMatchObject({ code: 'SLOW_DOWN', statusCode: 429, message: 'Slow down' })
    expect(err.details).toEqual({ retryAfter: 3 })
    expect(RateLimited({ retryAfter: 1 }, 'Wait a second').message).toBe('Wait a second')
    expect(AppError.define('NO_MESSAGE', 400)(null).message).toBe('NO_MESSAGE')
  })

  it('fromLegacy wraps {code, message, statusCode} and keeps it as the cause', () => {
    const legacy = { code: 'E_OLD', message: 'Old', statusCode: 410 }
    const err = AppError.fromLegacy(legacy)
    expect(err).toMatchObject({ code: 'E_OLD', message: 'Old', statusCode: 410 })
    expect(err.cause).toBe(legacy)
  })
})

describe('AppError.fromUnknown', () => {
  it('passes an AppError through unchanged', () => {
    const err = AppError.forbidden()
    expect(AppError.fromUnknown(err)).toBe(err)
  })

  it('turns an Error into a non-operational 500 that keeps it as the cause', () => {
    const original = new TypeError('x is undefined')
    const err = AppError.fromUnknown(original)
    expect(err).toMatchObject({
      code: 'INTERNAL_ERROR',
      statusCode: 500,
      message: 'x is undefined',
      isOperational: false,
    })
    expect(err.cause).toBe(original)
  })

  it.each([
    [null, 'Non-error value thrown: null'],
    [undefined, 'Non-error value thrown: undefined'],
    ['boom', 'boom'],
    ['', 'Empty string thrown'],
    [7, 'Non-error value thrown: 7'],
    [{ a: 1 }, 'Non-error object thrown'],
    [Object.create(null), 'Non-error object thrown'],
  ])('turns %j into a programmer error', (value, message) => {
    const err = AppError.fromUnknown(value)
    expect(err).toMatchObject({ code: 'INTERNAL_ERROR', statusCode: 500, message })
    expect(err.isOperational).toBe(false)
  })

  it('recognises client errors of the host framework as operational 4xx', () => {
    const parse = Object.assign(new SyntaxError('Unexpected end'), {
      type: 'entity.parse.failed',
      status: 400,
      expose: true,
    })
    const err = AppError.fromUnknown(parse)
    expect(err).toMatchObject({ code: 'INVALID_JSON', statusCode: 400, isOperational: true })
    expect(err.cause).toBe(parse)
  })
})

describe('isAppError', () => {
  it('recognises an AppError made by another copy of the package by its brand', () => {
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('shapeguard.AppError')]: true,
      code: 'X',
      statusCode: 400,
    })
    expect(isAppError(foreign)).toBe(true)
    expect(AppError.fromUnknown(foreign)).toBe(foreign)
  })

  it('rejects look-alikes without the brand', () => {
    expect(isAppError({ isAppError: true, code: 'X', statusCode: 400 })).toBe(false)
    expect(isAppError(new Error('x'))).toBe(false)
    expect(isAppError(null)).toBe(false)
    expect(isAppError('AppError')).toBe(false)
  })
})

describe('AppError.fromUnknown with hostile values', () => {
  const trap = () => {
    throw new Error('trap ran')
  }
  const proxy = new Proxy(
    {},
    { get: trap, getPrototypeOf: trap, getOwnPropertyDescriptor: trap, has: trap },
  )

  it('isAppError is false for a Proxy whose traps throw, and never throws', () => {
    expect(isAppError(proxy)).toBe(false)
  })

  it('never takes a type from the prototype of its table or the text of a plain object', () => {
    const err = AppError.fromUnknown({ type: 'constructor', code: 'X', message: 'secret' })
    expect(err).toMatchObject({
      code: 'INTERNAL_ERROR',
      statusCode: 500,
      isOperational: false,
      message: 'Non-error object thrown',
    })
  })

  it('wraps a Proxy as a programmer error', () => {
    expect(AppError.fromUnknown(proxy)).toMatchObject({
      code: 'INTERNAL_ERROR',
      isOperational: false,
      message: 'Non-error object thrown',
    })
  })

  it('does not run a getter of an Error', () => {
    const err = new Error('x')
    Object.defineProperty(err, 'message', { get: trap })
    expect(AppError.fromUnknown(err).message).toBe('Error')
  })
})
