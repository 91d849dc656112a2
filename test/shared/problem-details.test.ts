import { STATUS_CODES } from 'node:http'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { errorCodes } from '../../src/shared/error-codes.js'
import {
  checkProblemTypeBase,
  problemDetails,
  problemFallback,
  problemInstance,
  problemTitle,
  problemType,
} from '../../src/shared/problem-details.js'

const source = { code: 'NOT_FOUND', status: 404, message: 'User not found', details: null }

// RFC 3986: path-absolute = "/" [ segment-nz *( "/" segment ) ]; pchar as unreserved,
// pct-encoded, sub-delims, ':' and '@'.
const pathAbsolute =
  /^\/(?:(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*)*)?$/

describe('problemDetails', () => {
  it('writes the five RFC 9457 members, then code and the request ID, in that order', () => {
    const body = problemDetails({ ...source, requestId: 'req_1', path: '/users/7' })
    expect(body).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'User not found',
      instance: '/users/7',
      code: 'NOT_FOUND',
      requestId: 'req_1',
    })
    expect(Object.keys(body)).toEqual([
      'type',
      'title',
      'status',
      'detail',
      'instance',
      'code',
      'requestId',
    ])
    expect(Object.isFrozen(body)).toBe(true)
  })

  it('leaves out instance without a path and requestId when request IDs are disabled', () => {
    expect(problemDetails({ ...source, requestId: '' })).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'User not found',
      code: 'NOT_FOUND',
    })
  })

  it('gives every registry code its status as status and its reason phrase as title', () => {
    for (const entry of Object.values(errorCodes)) {
      const body = problemDetails({ ...entry, details: null })
      expect(body.status, entry.code).toBe(entry.status)
      expect(body.title, entry.code).toBe(problemTitle(entry.status))
      expect(body.code).toBe(entry.code)
    }
  })

  it('turns validation issues into errors, each with the request part as in', () => {
    const issues = [
      { field: 'email', message: 'Invalid email address' },
      { field: 'age', message: 'Too small', code: 'too_small' },
    ]
    const body = problemDetails({
      code: 'VALIDATION_ERROR',
      status: 422,
      message: 'Validation failed',
      details: issues,
      part: 'body',
    })
    expect(body.errors).toEqual([
      { field: 'email', message: 'Invalid email address', in: 'body' },
      { field: 'age', message: 'Too small', code: 'too_small', in: 'body' },
    ])
    expect(body).not.toHaveProperty('details')
    expect(issues[0]).not.toHaveProperty('in') // the error's own details are not changed
  })

  it('makes a single issue a list, and leaves in out when the part is not known', () => {
    const body = problemDetails({
      code: 'VALIDATION_ERROR',
      status: 422,
      message: 'Validation failed',
      details: { field: 'sku', message: 'Unknown' },
    })
    expect(body.errors).toEqual([{ field: 'sku', message: 'Unknown' }])
  })

  it("spreads a plain object's members as extension members (429, 405, 413, your own)", () => {
    const retry = problemDetails({
      ...source,
      code: 'RATE_LIMIT_EXCEEDED',
      status: 429,
      details: { retryAfter: 30 },
    })
    expect(retry.retryAfter).toBe(30)
    const allowed = problemDetails({ ...source, details: { allowed: ['GET', 'HEAD'] } })
    expect(allowed.allowed).toEqual(['GET', 'HEAD'])
    const own = problemDetails({
      ...source,
      details: Object.assign(Object.create(null), { sku: 'A-1' }),
    })
    expect(own.sku).toBe('A-1')
    expect(own).not.toHaveProperty('details')
  })

  it('sends any other details whole as details: never overwriting a member', () => {
    const cases: unknown[] = [
      'Error: boom\n    at x',
      [1, 2],
      { status: 'pending' },
      { code: 'mine' },
      { errors: ['x'] },
      { details: 1 },
      JSON.parse('{"__proto__":{"polluted":true}}'),
      { toJSON: () => 'x' },
      new Date(0),
      42,
    ]
    for (const details of cases) {
      const body = problemDetails({ ...source, details })
      expect(body.details).toBe(details)
      expect(body.status).toBe(404)
      expect(body.code).toBe('NOT_FOUND')
      expect(Object.getPrototypeOf(body)).toBe(Object.prototype)
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('does not take details that only look like issues for the errors of another code', () => {
    const body = problemDetails({ ...source, details: { field: 'a', message: 'b' } })
    expect(body).toMatchObject({ field: 'a', message: 'b' })
    expect(body).not.toHaveProperty('errors')
  })

  it('keeps VALIDATION_ERROR details that are not issues as they are, beside an empty errors', () => {
    const body = problemDetails({
      code: 'VALIDATION_ERROR',
      status: 422,
      message: 'Validation failed',
      details: 'no',
    })
    expect(body.details).toBe('no')
    // ValidationProblem, as the document describes it, requires errors.
    expect(body.errors).toEqual([])
    const none = problemDetails({
      code: 'VALIDATION_ERROR',
      status: 422,
      message: 'x',
      details: null,
    })
    expect(none.errors).toEqual([])
    expect(none).not.toHaveProperty('details')
  })

  it('uses the type base when given: one URI per code', () => {
    const base = 'https://api.example.com/problems/'
    expect(problemDetails(source, base).type).toBe(`${base}not-found`)
    expect(problemType('VALIDATION_ERROR', base)).toBe(`${base}validation-error`)
    expect(problemType('OUT OF/STOCK?', 'tag:example.com,2025:')).toBe(
      'tag:example.com,2025:out%20of%2Fstock%3F',
    )
  })
})

describe('problemTitle', () => {
  it("is RFC 9110's phrase, where Node still writes the older ones", () => {
    expect(problemTitle(422)).toBe('Unprocessable Content')
    expect(STATUS_CODES[422]).toBe('Unprocessable Entity')
    expect(problemTitle(413)).toBe('Content Too Large')
    expect(problemTitle(429)).toBe('Too Many Requests')
  })

  it('is the x00 of its class for a status with no registered phrase', () => {
    expect(problemTitle(418)).toBe('Bad Request')
    expect(problemTitle(499)).toBe('Bad Request')
    expect(problemTitle(599)).toBe('Internal Server Error')
  })
})

describe('problemInstance', () => {
  it('is the path as it arrived, percent-encoding kept', () => {
    expect(problemInstance('/users/7')).toBe('/users/7')
    expect(problemInstance('/files/a%2Fb;v=1')).toBe('/files/a%2Fb;v=1')
    expect(problemInstance('/')).toBe('/')
  })

  it('encodes every character a path may not hold', () => {
    expect(problemInstance('/a b"<script>')).toBe('/a%20b%22%3Cscript%3E')
    expect(problemInstance('/100%')).toBe('/100%25')
    expect(problemInstance('/%zz')).toBe('/%25zz')
    expect(problemInstance('/x\u0000\r\n')).toBe('/x%00%0D%0A')
    // Node gives a request target's bytes one character each (latin1): the same bytes go back.
    expect(problemInstance('/caf\u00c3\u00a9')).toBe('/caf%C3%A9')
    expect(problemInstance('/\u00e9\ud83d')).toBe('/%E9%EF%BF%BD')
  })

  it('is none for what is not a plain path: *, an absolute URL, //host', () => {
    expect(problemInstance(undefined)).toBeUndefined()
    expect(problemInstance('')).toBeUndefined()
    expect(problemInstance('*')).toBeUndefined()
    expect(problemInstance('http://evil.example/x')).toBeUndefined()
    expect(problemInstance('//evil.example/x')).toBeUndefined()
  })

  it('is always an absolute-path URI reference, whatever the path holds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (rest) => {
        const instance = problemInstance(`/${rest}`)
        if (instance === undefined) expect(rest.startsWith('/')).toBe(true)
        else expect(instance).toMatch(pathAbsolute)
      }),
    )
  })
})

describe('checkProblemTypeBase', () => {
  it('takes an absolute URI ending where a code can follow', () => {
    for (const base of [
      'https://api.example.com/problems/',
      'https://api.example.com/errors#',
      'tag:example.com,2025:',
      'urn:example:problem:',
    ]) {
      expect(checkProblemTypeBase(base, 'errors.problemTypeBase')).toBe(base)
    }
    expect(checkProblemTypeBase(undefined, 'errors.problemTypeBase')).toBeUndefined()
  })

  it('refuses anything else, naming the option', () => {
    for (const base of [
      '/problems/',
      'https://api.example.com/problems',
      'https://api.example.com/a b/',
      'https://api.example.com/"x"/',
      '',
      42,
      null,
    ]) {
      expect(() => checkProblemTypeBase(base, 'errors.problemTypeBase'), String(base)).toThrow(
        /^shapeguard: errors\.problemTypeBase: must be an absolute URI ending in '\/', '#' or ':'/,
      )
    }
  })
})

describe('problemFallback', () => {
  it('is a fixed 500 problem, with the type base when given', () => {
    expect(JSON.parse(problemFallback())).toEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: 'Something went wrong',
      code: 'INTERNAL_ERROR',
    })
    expect(JSON.parse(problemFallback('https://x.example/p/')).type).toBe(
      'https://x.example/p/internal-error',
    )
  })
})
