import { describe, expect, it } from 'vitest'
import { shapeguard } from '../../../src/index.js'
import { peekContext } from '../../../src/runtime/context/context.js'
import { mockNext, mockRequest, mockResponse } from '../../../src/testing/index.js'

describe('shapeguard', () => {
  it('resolves its configuration once, when mounted, and checks it there', () => {
    expect(() => shapeguard({ response: { statusCodes: { GET: 500 } } })).toThrow(
      /response\.statusCodes\.GET/,
    )
  })

  it('is a named middleware that calls next once', () => {
    const middleware = shapeguard()
    expect(middleware.name).toBe('shapeguard')
    const next = mockNext()
    middleware(mockRequest(), mockResponse(), next)
    expect(next.calls).toBe(1)
    expect(next.error).toBeUndefined()
  })

  it('gives each response the configuration of its own instance and shares it on app.locals', () => {
    const a = shapeguard({ debug: true })
    const b = shapeguard({ debug: false })
    const reqA = mockRequest()
    const resA = mockResponse()
    const resB = mockResponse()
    a(reqA, resA, mockNext())
    b(mockRequest(), resB, mockNext())
    expect(peekContext(resA)?.config?.debug).toBe(true)
    expect(peekContext(resB)?.config?.debug).toBe(false)
    expect(reqA.app.locals.shapeguard).toBe(peekContext(resA)?.config)
  })

  it('puts every response helper on the response', () => {
    const res = mockResponse()
    for (const name of [
      'ok',
      'created',
      'accepted',
      'noContent',
      'paginated',
      'cursorPaginated',
      'fail',
    ] as const) {
      delete (res as unknown as Record<string, unknown>)[name]
    }
    shapeguard()(mockRequest(), res, mockNext())
    res.created({ data: 1 })
    expect(res._result()).toMatchObject({ statusCode: 201, body: { success: true, data: 1 } })
  })
})
