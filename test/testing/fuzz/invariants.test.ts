import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { zodAdapter } from '../../../src/adapters/zod/index.js'
import { defineRoute } from '../../../src/index.js'
import { generateOpenAPI } from '../../../src/openapi/index.js'
import { brokenInvariant, type RouteChecks } from '../../../src/testing/fuzz/invariants.js'
import { errorEnvelopeCheck, operationOf } from '../../../src/testing/fuzz/response-check.js'
import type { FuzzRequest } from '../../../src/testing/fuzz/route-requests.js'
import { undeclaredKey } from '../../../src/testing/fuzz/undeclared.js'
import { curlLine } from '../../../src/testing/fuzz/wire.js'

const User = z.object({ id: z.number(), name: z.string() })
const route = defineRoute({ body: z.object({ name: z.string().min(1) }), response: User })
const doc = generateOpenAPI({ title: 't', version: '1', routes: { 'POST /users': route } })
const checks: RouteChecks = {
  operation: operationOf(doc, 'post', '/users'),
  allowed: new Set([409]),
  errorEnvelope: errorEnvelopeCheck(doc),
  response: zodAdapter(User).ir,
  rateLimited: false,
}
const request = (kind: FuzzRequest['kind'], extra: Partial<FuzzRequest> = {}): FuzzRequest => ({
  kind,
  method: 'POST',
  url: '/users',
  headers: {},
  body: '{}',
  ...extra,
})
const answer = (status: number, body: unknown) => ({
  status,
  headers: {},
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
      errorEnvelope: errorEnvelopeCheck(limitedDoc),
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
      headers: Record<string, string> = { 'retry-after': '60' },
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
    expect(brokenInvariant(request('valid'), answer429(other), rateChecks)).toBe(
      'answered 429 without the RATE_LIMIT_EXCEEDED code',
    )
    expect(brokenInvariant(request('valid'), answer429(tooMany, {}), rateChecks)).toBe(
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
