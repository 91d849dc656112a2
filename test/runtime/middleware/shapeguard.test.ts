import { IncomingMessage } from 'node:http'
import { Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { shapeguard } from '../../../src/index.js'
import { peekContext } from '../../../src/runtime/core/context.js'
import { mockNext, mockRequest, mockResponse } from '../../../src/testing/index.js'
import { misuse } from '../../support/misuse.js'

describe('shapeguard', () => {
  it('resolves its configuration once, when mounted, and checks it there', () => {
    expect(() => shapeguard({ response: { statusCodes: { GET: 500 } } })).toThrow(
      /response\.statusCodes\.GET/,
    )
  })

  it('rejects a misspelt option, naming it and listing the options (loger for logger)', () => {
    expect(() => shapeguard({ loger: { level: 'warn' } } as never)).toThrow(
      misuse(
        'SG_ERR_UNKNOWN_OPTION',
        'shapeguard: shapeguard(): loger is not an option (debug, logger, requestId, validation, response, warnings, errors, cookies, auth, defaultSecurity, timeout, overload)',
      ),
    )
  })

  it('rejects a misspelt or misplaced key of every section, and a section that is not an object', () => {
    const cases: [unknown, string][] = [
      [
        { requestId: { enable: false } },
        'requestId: enable is not an option (enabled, header, generator)',
      ],
      [{ requestId: false }, 'requestId: must be an object'],
      [
        { validation: { strigs: { trim: true } } },
        'validation: strigs is not an option (strings, limits, exposeFieldName, exposeMessage, exposeEnumValues, exposeSchemaCodes)',
      ],
      [
        { validation: { strings: { trimm: true } } },
        'validation.strings: trimm is not an option (trim, lowercase)',
      ],
      [
        { response: { statuscodes: { POST: 200 } } },
        'response: statuscodes is not an option (shape, statusCodes, includeRequestId)',
      ],
      [
        { warnings: { missingSchema: false } },
        'warnings: missingSchema is not an option (missingResponseSchema)',
      ],
      [
        { warnings: { missingResponseSchema: 0 } },
        'warnings.missingResponseSchema: must be a boolean',
      ],
      [
        { errors: { fallback: 'x' } },
        'errors: fallback is not an option (fallbackMessage, onError, format, problemTypeBase)',
      ],
      [{ errors: { format: 'problem' } }, "errors.format: must be 'envelope' or 'problem+json'"],
      [{ errors: { format: 'application/problem+json' } }, "errors.format: must be 'envelope'"],
      [
        { errors: { problemTypeBase: 'https://api.example.com/problems/' } },
        "errors.problemTypeBase: names problem types, it needs errors.format 'problem+json'",
      ],
      [
        { errors: { format: 'problem+json', problemTypeBase: 'problems/' } },
        "errors.problemTypeBase: must be an absolute URI ending in '/', '#' or ':'",
      ],
    ]
    for (const [config, message] of cases) {
      expect(() => shapeguard(config as never)).toThrow(TypeError)
      expect(() => shapeguard(config as never)).toThrow(`shapeguard: ${message}`)
    }
    expect(() => shapeguard({ errors: { format: 'envelope' } })).not.toThrow()
    expect(() => shapeguard({ errors: { format: 'problem+json' } })).not.toThrow()
    expect(() =>
      shapeguard({
        errors: { format: 'problem+json', problemTypeBase: 'https://api.example.com/problems/' },
      }),
    ).not.toThrow()
  })

  it('says a route option goes to the route, and shapeguard itself must be called', () => {
    expect(() => shapeguard({ cache: { maxAge: 1 } } as never)).toThrow(/option of a route/)
    // app.use(shapeguard): Express calls it with the request.
    expect(() => shapeguard(new IncomingMessage(new Socket()) as never)).toThrow(
      'shapeguard: shapeguard(): makes the middleware, mount app.use(shapeguard()), not app.use(shapeguard)',
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
