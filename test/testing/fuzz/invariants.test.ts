import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { zodAdapter } from '../../../src/adapters/zod/index.js'
import { defineRoute } from '../../../src/index.js'
import { generateOpenAPI } from '../../../src/openapi/index.js'
import { curlLine } from '../../../src/shared/curl-line.js'
import { envelopeNames } from '../../../src/shared/envelope-shape.js'
import type { FuzzRequest } from '../../../src/testing/fuzz/fuzz-request.js'
import { brokenInvariant, type RouteChecks } from '../../../src/testing/fuzz/invariants.js'
import { errorAnswerCheck, operationOf } from '../../../src/testing/fuzz/response-check.js'
import { undeclaredKey } from '../../../src/testing/fuzz/undeclared.js'

const User = z.object({ id: z.number(), name: z.string() })
const route = defineRoute({ body: z.object({ name: z.string().min(1) }), response: User })
const doc = generateOpenAPI({ title: 't', version: '1', routes: { 'POST /users': route } })
const checks: RouteChecks = {
  operation: operationOf(doc, 'post', '/users'),
  allowed: new Set([409]),
  errorAnswer: errorAnswerCheck(doc),
  response: zodAdapter(User).ir,
  rateLimited: false,
  unavailable: new Set(),
  envelope: envelopeNames(undefined),
}
const request = (kind: FuzzRequest['kind'], extra: Partial<FuzzRequest> = {}): FuzzRequest => ({
  kind,
  method: 'POST',
  url: '/users',
  headers: {},
  body: '{}',
  ...extra,
})
const shape = { ok: '{success}', result: '{data}', note: '{message}' }
const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' }
const answer = (status: number, body: unknown) => ({
  status,
  headers: JSON_TYPE,
  text: JSON.stringify(body),
})
const ok = { success: true, message: '', data: { id: 1, name: 'a' } }
const issue = (field: string) => ({
  success: false,
  message: 'Validation failed',
  error: {
    code: 'VALIDATION_ERROR',
    message: 'Validation failed',
    details: { field, message: 'x' },
  },
})
const broken = { part: 'body' as const, field: 'name', deep: false }

describe('brokenInvariant', () => {
  it('passes answers that keep the contract', () => {
    expect(brokenInvariant(request('valid'), answer(201, ok), checks)).toBeUndefined()
    expect(
      brokenInvariant(request('invalid', { broken }), answer(422, issue('name')), checks),
    ).toBeUndefined()
    const conflict = {
      success: false,
      message: 'x',
      error: { code: 'CONFLICT', message: 'x', details: null },
    }
    expect(brokenInvariant(request('valid'), answer(409, conflict), checks)).toBeUndefined()
  })

  it('names each broken invariant', () => {
    expect(brokenInvariant(request('valid'), answer(500, {}), checks)).toMatch(/never get a 5xx/)
    expect(brokenInvariant(request('valid'), answer(404, {}), checks)).toMatch(/does not list/)
    expect(
      brokenInvariant(request('valid'), { status: 201, headers: {}, text: 'x' }, checks),
    ).toMatch(/not JSON/)
    expect(
      brokenInvariant(request('valid'), answer(201, { success: true, data: { id: 1 } }), checks),
    ).toMatch(/malformed envelope/)
    expect(brokenInvariant(request('valid'), answer(422, issue('name')), checks)).toMatch(
      /a valid request got 422 \(name: x\)/,
    )
    expect(brokenInvariant(request('invalid', { broken }), answer(201, ok), checks)).toMatch(
      /got 201, not 422/,
    )
    expect(
      brokenInvariant(request('invalid', { broken }), answer(422, issue('body')), checks),
    ).toMatch(/got 422 naming body/)
    const leaked = { ...ok, data: { id: 1, name: 'a', passwordHash: 'h' } }
    // The document's schema refuses it first; without one, the IR walk names the key.
    expect(brokenInvariant(request('valid'), answer(201, leaked), checks)).toMatch(
      /malformed envelope: \/data must NOT have additional properties/,
    )
    expect(
      brokenInvariant(request('valid'), answer(201, leaked), { ...checks, operation: undefined }),
    ).toMatch(/data\.passwordHash, which the response schema does not declare/)
    // A renamed envelope (response.shape): its success and data fields, wherever they are named.
    const renamed = { ...checks, operation: undefined, envelope: envelopeNames(shape) }
    expect(
      brokenInvariant(request('valid'), answer(201, { ok: true, result: leaked.data }), renamed),
    ).toMatch(/result\.passwordHash, which the response schema does not declare/)
    expect(brokenInvariant(request('valid'), answer(201, { ok: true, data: {} }), renamed)).toBe(
      undefined,
    )
    expect(brokenInvariant(request('valid'), answer(201, ok), renamed)).toMatch(
      /malformed envelope: ok is not true/,
    )
    // A shape without a {success} field: its data fields must be there, and no error.
    const bare = { ...renamed, envelope: envelopeNames({ result: '{data}' }) }
    expect(brokenInvariant(request('valid'), answer(201, { result: {} }), bare)).toBe(undefined)
    expect(brokenInvariant(request('valid'), answer(201, {}), bare)).toMatch(
      /malformed envelope: result is missing/,
    )
    expect(brokenInvariant(request('valid'), answer(201, { result: {}, error: {} }), bare)).toMatch(
      /malformed envelope: it carries an error/,
    )
    expect(brokenInvariant(request('valid'), answer(201, [1]), bare)).toMatch(
      /malformed envelope: it is not an object/,
    )
    expect(
      brokenInvariant(
        request('hostile', { hostile: 'proto-key', expect: [400] }),
        answer(201, ok),
        checks,
      ),
    ).toMatch(/hostile request \(proto-key\) got 201, not 400/)
  })

  it("takes the route's own 429 from any request, in its envelope with its code and Retry-After", () => {
    const limited = defineRoute({
      body: z.object({ name: z.string() }),
      rateLimit: { windowMs: 60_000, max: 1 },
    })
    const limitedDoc = generateOpenAPI({
      title: 't',
      version: '1',
      routes: { 'POST /users': limited },
    })
    const rateChecks: RouteChecks = {
      ...checks,
      operation: operationOf(limitedDoc, 'post', '/users'),
      errorAnswer: errorAnswerCheck(limitedDoc),
      rateLimited: true,
    }
    const tooMany = {
      success: false,
      message: 'Too many requests',
      error: {
        code: 'RATE_LIMIT_EXCEEDED',
        message: 'Too many requests',
        details: { retryAfter: 60 },
      },
    }
    const answer429 = (
      body: unknown,
      headers: Record<string, string> = { ...JSON_TYPE, 'retry-after': '60' },
    ) => ({
      status: 429,
      headers,
      text: JSON.stringify(body),
    })
    for (const req of [
      request('valid'),
      request('invalid', { broken }),
      request('hostile', { hostile: 'proto-key', expect: [400, 413] }),
    ])
      expect(brokenInvariant(req, answer429(tooMany), rateChecks)).toBeUndefined()
    const other = { ...tooMany, error: { ...tooMany.error, code: 'SLOW_DOWN' } }
    // The document's 429 narrows the code to RATE_LIMIT_EXCEEDED: the envelope check sees it first.
    expect(brokenInvariant(request('valid'), answer429(other), rateChecks)).toBe(
      'answered 429 with a malformed envelope: /error/code must be equal to constant',
    )
    expect(brokenInvariant(request('valid'), answer429(tooMany, JSON_TYPE), rateChecks)).toBe(
      'answered 429 without a Retry-After header of whole seconds',
    )
    expect(brokenInvariant(request('valid'), answer429({ success: false }), rateChecks)).toMatch(
      /^answered 429 with a malformed envelope/,
    )
    // Without a rateLimit on the route, a 429 is one more status the document does not list.
    expect(brokenInvariant(request('invalid', { broken }), answer429(tooMany), checks)).toMatch(
      /answered 429, a status the OpenAPI document does not list/,
    )
  })

  it("takes the route's own 503 HANDLER_TIMEOUT, documented with Retry-After; any other 503 fails", () => {
    const timed = defineRoute({ body: z.object({ name: z.string() }), timeout: 100 })
    const timedDoc = generateOpenAPI({ title: 't', version: '1', routes: { 'POST /users': timed } })
    const timedChecks: RouteChecks = {
      ...checks,
      operation: operationOf(timedDoc, 'post', '/users'),
      errorAnswer: errorAnswerCheck(timedDoc),
      unavailable: new Set(['HANDLER_TIMEOUT']),
    }
    const error = (code: string) => ({
      success: false,
      message: 'x',
      error: { code, message: 'x', details: null },
    })
    const answer503 = (code: string, headers: Record<string, string> = JSON_TYPE) => ({
      status: 503,
      headers: { ...headers },
      text: JSON.stringify(error(code)),
    })
    const retry = { ...JSON_TYPE, 'retry-after': '5' }
    for (const req of [request('valid'), request('invalid', { broken })])
      expect(brokenInvariant(req, answer503('HANDLER_TIMEOUT', retry), timedChecks)).toBeUndefined()
    expect(brokenInvariant(request('valid'), answer503('HANDLER_TIMEOUT'), timedChecks)).toBe(
      'answered 503 HANDLER_TIMEOUT without a Retry-After header of whole seconds',
    )
    // Not a code of the route's own 503s: a 5xx like any other.
    expect(brokenInvariant(request('valid'), answer503('OVERLOADED', retry), timedChecks)).toBe(
      'answered 503: a request must never get a 5xx',
    )
    // A route without a timeout: its 503 fails, whatever its code.
    expect(brokenInvariant(request('valid'), answer503('HANDLER_TIMEOUT', retry), checks)).toBe(
      'answered 503: a request must never get a 5xx',
    )
    // A document that does not list 503 (one given by the caller): a status it does not list.
    expect(
      brokenInvariant(request('valid'), answer503('HANDLER_TIMEOUT', retry), {
        ...timedChecks,
        operation: checks.operation,
      }),
    ).toMatch(/^answered 503 HANDLER_TIMEOUT, a status the OpenAPI document does not list/)
  })

  it("expects the guards' 400 for a request past a guard limit, whatever its kind", () => {
    const tooLong = {
      success: false,
      message: 'x',
      error: { code: 'STRING_TOO_LONG', message: 'x', details: { maxStringLength: 10 } },
    }
    const past = request('invalid', { broken, expect: [400, 413] })
    expect(brokenInvariant(past, answer(400, tooLong), checks)).toBeUndefined()
    expect(brokenInvariant(past, answer(422, issue('name')), checks)).toBe(
      'an invalid request (body field name broken) (past a guard limit) got 422, not 400 or 413',
    )
  })

  it('says where to give credentials when a 401 or 403 comes before validation', () => {
    const refused = {
      success: false,
      message: 'x',
      error: { code: 'UNAUTHORIZED', message: 'x', details: null },
    }
    expect(brokenInvariant(request('invalid', { broken }), answer(401, refused), checks)).toMatch(
      /does not list .*: give fuzzRoutes the credentials, auth or headers\)$/,
    )
    expect(
      brokenInvariant(request('invalid', { broken }), answer(401, refused), {
        ...checks,
        operation: undefined,
      }),
    ).toBe(
      'an invalid request (body field name broken) got 401, not 422 (refused before validation: give fuzzRoutes the credentials, auth or headers)',
    )
  })
})

describe('brokenInvariant with a document of problem details', () => {
  const limited = defineRoute({ ...route, rateLimit: { windowMs: 60_000, max: 1 } })
  const problemDoc = generateOpenAPI({
    title: 't',
    version: '1',
    routes: { 'POST /users': limited },
    errors: { format: 'problem+json' },
  })
  const problemChecks: RouteChecks = {
    ...checks,
    operation: operationOf(problemDoc, 'post', '/users'),
    errorAnswer: errorAnswerCheck(problemDoc),
    rateLimited: true,
  }
  const PROBLEM = { 'content-type': 'application/problem+json; charset=utf-8' }
  const problem = (status: number, body: object, headers: object = PROBLEM) => ({
    status,
    headers: headers as Record<string, string>,
    text: JSON.stringify({
      type: 'about:blank',
      title: 'x',
      status,
      detail: 'x',
      instance: '/users',
      code: 'X',
      ...body,
    }),
  })
  const invalid = problem(422, {
    code: 'VALIDATION_ERROR',
    errors: [{ field: 'name', message: 'x', in: 'body' }],
  })

  it('passes problem details with their media type, reading the issues from errors', () => {
    expect(brokenInvariant(request('invalid', { broken }), invalid, problemChecks)).toBeUndefined()
    expect(brokenInvariant(request('valid'), answer(201, ok), problemChecks)).toBeUndefined()
    expect(brokenInvariant(request('valid'), invalid, problemChecks)).toBe(
      'a valid request got 422 (name: x)',
    )
    const tooMany = problem(
      429,
      { code: 'RATE_LIMIT_EXCEEDED', retryAfter: 60 },
      { ...PROBLEM, 'retry-after': '60' },
    )
    expect(brokenInvariant(request('valid'), tooMany, problemChecks)).toBeUndefined()
    // 409 is not in the document, but allowed: it must be problem details too.
    expect(brokenInvariant(request('valid'), problem(409, {}), problemChecks)).toBeUndefined()
  })

  it('catches an envelope, or problem details under another media type', () => {
    const envelope = { ...answer(422, issue('name')), headers: PROBLEM }
    expect(brokenInvariant(request('invalid', { broken }), envelope, problemChecks)).toMatch(
      /^answered 422 with a malformed problem details: .*must have required property/,
    )
    const asJson = { ...invalid, headers: JSON_TYPE }
    expect(brokenInvariant(request('invalid', { broken }), asJson, problemChecks)).toBe(
      'answered 422 without the Content-Type application/problem+json of its problem details',
    )
    const untyped = { ...problem(409, {}), headers: {} }
    expect(brokenInvariant(request('valid'), untyped, problemChecks)).toBe(
      'answered 409 without the Content-Type application/problem+json of its problem details',
    )
    expect(
      brokenInvariant(request('valid'), answer(409, { success: false }), problemChecks),
    ).toMatch(/^answered 409 without the Content-Type/)
    const noRetryMember = problem(
      429,
      { code: 'RATE_LIMIT_EXCEEDED' },
      { ...PROBLEM, 'retry-after': '60' },
    )
    expect(brokenInvariant(request('valid'), noRetryMember, problemChecks)).toMatch(
      /^answered 429 with a malformed problem details: .*retryAfter/,
    )
  })

  it('catches problem details where the document says envelope', () => {
    expect(brokenInvariant(request('invalid', { broken }), invalid, checks)).toBe(
      'answered 422 without the Content-Type application/json of its envelope',
    )
    expect(
      brokenInvariant(request('invalid', { broken }), { ...invalid, headers: JSON_TYPE }, checks),
    ).toMatch(/^answered 422 with a malformed envelope/)
  })
})

describe('undeclaredKey', () => {
  it('finds keys a stripping schema does not declare, at any depth, through unions', () => {
    const schema = z.object({
      a: z.array(z.union([z.object({ x: z.number() }), z.object({ y: z.number() })])),
    })
    const ir = zodAdapter(schema).ir!
    expect(undeclaredKey(ir, { a: [{ x: 1 }, { y: 2 }] })).toBeUndefined()
    expect(undeclaredKey(ir, { a: [{ x: 1, z: 3 }] })).toEqual(['a', 0, 'z'])
    expect(undeclaredKey(zodAdapter(z.strictObject({})).ir!, { anything: 1 })).toEqual(['anything'])
    expect(undeclaredKey(zodAdapter(z.looseObject({})).ir!, { anything: 1 })).toBeUndefined()
    expect(
      undeclaredKey(zodAdapter(z.record(z.string(), z.number())).ir!, { k: 1 }),
    ).toBeUndefined()
  })
})

describe('curlLine', () => {
  it("quotes for a shell, control characters in $'…'", () => {
    expect(curlLine('POST', 'http://h/x', { a: "it's" }, '{"k":"v"}')).toBe(
      `curl --globoff -X POST 'http://h/x' -H 'a: it'\\''s' --data-raw '{"k":"v"}'`,
    )
    expect(curlLine('POST', 'http://h/x', {}, '{"k":"\u0001"}')).toBe(
      `curl --globoff -X POST 'http://h/x' --data-raw $'{"k":"\\x01"}'`,
    )
  })
})
