import { describe, expect, it } from 'vitest'
import {
  AppError,
  asyncHandler,
  errorHandler,
  notFoundHandler,
  shapeguard,
} from '../../../src/index.js'
import { mockNext, mockRequest, mockResponse } from '../../../src/testing/index.js'
import { captureLogger } from '../../support/e2e.js'

describe('mockResponse', () => {
  it('throws on a second answer, as Express does, and ignores a second end()', () => {
    const res = mockResponse()
    res.json({ a: 1 })
    expect(() => res.json({ a: 2 })).toThrow(
      expect.objectContaining({ code: 'ERR_HTTP_HEADERS_SENT' }),
    )
    expect(() => res.send('x')).toThrow(/after they are sent/)
    res.end()
    expect(res._result().body).toEqual({ a: 1 })
  })

  it('sends the status text with sendStatus, as Express does', () => {
    const res = mockResponse()
    res.sendStatus(404)
    expect(res._result()).toMatchObject({ statusCode: 404, body: 'Not Found' })
  })

  it('records status, json and headers in _result()', () => {
    const res = mockResponse()
    res.status(202).setHeader('X-Trace', 'abc')
    res.json({ a: 1 })
    expect(res.headersSent).toBe(true)
    expect(res._result()).toEqual({
      statusCode: 202,
      body: { a: 1 },
      headers: { 'x-trace': 'abc', 'content-type': 'application/json; charset=utf-8' },
    })
  })

  it('starts at 200 with no body and headersSent false', () => {
    const res = mockResponse()
    expect(res.headersSent).toBe(false)
    expect(res._result()).toEqual({ statusCode: 200, body: undefined, headers: {} })
  })

  it('records end, send and every call in order', () => {
    const res = mockResponse()
    res.status(204).end()
    expect(res._result().statusCode).toBe(204)
    expect(res._calls.map((c) => c.method)).toEqual(['status', 'end'])
    const text = mockResponse()
    text.send('hello')
    expect(text._result().body).toBe('hello')
  })

  it('refuses headers after the response was sent, as Node does', () => {
    const res = mockResponse()
    res.json({})
    expect(() => res.setHeader('x', '1')).toThrow(/after they are sent/)
  })

  it('has every response helper, writing the envelope', () => {
    const res = mockResponse()
    res.ok({ data: { id: 1 }, message: 'found' })
    expect(res._result()).toMatchObject({
      statusCode: 200,
      body: { success: true, message: 'found', data: { id: 1 } },
    })
    expect(res._calls[0]).toEqual({ method: 'ok', args: [{ data: { id: 1 }, message: 'found' }] })
  })

  it.each([
    ['created', (r: ReturnType<typeof mockResponse>) => r.created({ data: 1 }), 201],
    ['accepted', (r: ReturnType<typeof mockResponse>) => r.accepted({ data: 1 }), 202],
    ['noContent', (r: ReturnType<typeof mockResponse>) => r.noContent(), 204],
    [
      'paginated',
      (r: ReturnType<typeof mockResponse>) =>
        r.paginated({ data: [], total: 3, page: 1, limit: 2 }),
      200,
    ],
    [
      'cursorPaginated',
      (r: ReturnType<typeof mockResponse>) =>
        r.cursorPaginated({ data: [], nextCursor: null, hasMore: false }),
      200,
    ],
    ['fail', (r: ReturnType<typeof mockResponse>) => r.fail({ code: 'X', message: 'x' }), 400],
  ])('%s sets its status', (_n, call, status) => {
    const res = mockResponse()
    call(res)
    expect(res._result().statusCode).toBe(status)
  })

  it('picks the ok status from the request method and the configuration', () => {
    const post = mockResponse({ req: mockRequest({ method: 'POST' }) })
    post.ok({ data: 1 })
    expect(post._result().statusCode).toBe(201)
    const configured = mockResponse({
      req: mockRequest({ method: 'POST' }),
      config: { response: { statusCodes: { POST: 200 } } },
    })
    configured.ok({ data: 1 })
    expect(configured._result().statusCode).toBe(200)
  })

  it('follows a configured response.shape', () => {
    const res = mockResponse({ config: { response: { shape: { result: '{data}' } } } })
    res.ok({ data: 5 })
    expect(res._result().body).toEqual({ result: 5 })
  })

  it('builds frozen envelopes around caller data that stays unfrozen', () => {
    const res = mockResponse()
    const data = { list: [1] }
    res.ok({ data })
    const body = res._result().body as { data: typeof data }
    expect(Object.isFrozen(body)).toBe(true)
    expect(body.data).toBe(data)
    expect(Object.isFrozen(data)).toBe(false)
    const failed = mockResponse()
    failed.fail({ code: 'X', message: 'x', details: { a: 1 } })
    const error = (failed._result().body as { error: { details: object } }).error
    expect(Object.isFrozen(error)).toBe(true)
    expect(Object.isFrozen(error.details)).toBe(false)
  })

  it('refuses an unknown option, listing the ones it takes', () => {
    const call = () => mockResponse({ request: mockRequest() } as never)
    expect(call).toThrow(TypeError)
    expect(call).toThrow(/\brequest is not an option/)
    expect(call).toThrow('(req, config)')
  })
})

describe('unit-testing with the doubles', () => {
  const getUser = asyncHandler(async (req, res) => {
    if (req.params.id !== '1') throw AppError.notFound('User')
    res.ok({ data: { id: 1, name: 'Ada' } })
  })

  it('tests a handler that answers', async () => {
    const res = mockResponse()
    const next = mockNext()
    getUser(mockRequest({ params: { id: '1' } }), res, next)
    await Promise.resolve()
    expect(next.called).toBe(false)
    expect(res._result().body).toEqual({ success: true, message: '', data: { id: 1, name: 'Ada' } })
  })

  it('tests a handler that fails, then errorHandler on the error it passed on', async () => {
    const req = mockRequest({ params: { id: '2' } })
    const res = mockResponse({ req })
    const next = mockNext()
    getUser(req, res, next)
    await new Promise((resolve) => setImmediate(resolve))
    expect(next.error).toBeInstanceOf(AppError)
    errorHandler({ logger: captureLogger() })(next.error, req, res, mockNext())
    expect(res._result()).toMatchObject({
      statusCode: 404,
      body: { success: false, error: { code: 'NOT_FOUND', message: 'User not found' } },
    })
  })

  it('tests shapeguard() and notFoundHandler as middleware', () => {
    const req = mockRequest({ method: 'PUT', url: '/nowhere?x=1' })
    const res = mockResponse()
    const next = mockNext()
    shapeguard({ debug: false })(req, res, next)
    expect(next.called).toBe(true)
    expect(req.app.locals.shapeguard.debug).toBe(false)
    const notFound = mockNext()
    notFoundHandler()(req, res, notFound)
    expect((notFound.error as AppError).message).toBe('Cannot PUT /nowhere')
  })
})
