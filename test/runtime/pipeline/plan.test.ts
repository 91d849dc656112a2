import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { defineRoute, handle, validate, zodAdapter } from '../../../src/index.js'
import { misuse } from '../../support/misuse.js'

const User = z.object({ id: z.number(), name: z.string() })
// Every option a route takes (test/runtime/pipeline/route-types.test-d.ts checks the
// list against RouteDefinition).
const valid =
  'body, params, query, headers, files, cookies, signedCookies, response, sends, events, stream, transform, rateLimit, cache, limits, allErrors, sanitize, warnings, security, errors, timeout, summary, description, tags, deprecated, bodyType, externalDocs, extensions, responseHeaders, operationId, links'

describe('planRoute (validate, handle, defineRoute)', () => {
  it.each([
    ['bdy', { bdy: User }],
    ['responce', { responce: User }],
    ['Body', { body: User, Body: User }],
  ])('rejects the misspelt route option %s, naming it and listing the options', (key, route) => {
    const message = (name: string) => `shapeguard: ${name}: ${key} is not an option (${valid})`
    expect(() => handle(route as never, () => undefined)).toThrow(
      misuse('SG_ERR_UNKNOWN_OPTION', message('handle()')),
    )
    expect(() => validate(route as never)).toThrow(
      misuse('SG_ERR_UNKNOWN_OPTION', message('validate()')),
    )
    expect(() => defineRoute(route as never)).toThrow(
      misuse('SG_ERR_UNKNOWN_OPTION', message('defineRoute()')),
    )
  })

  it('takes a route holding every documented option', () => {
    const route = defineRoute({
      body: User,
      params: z.object({ id: z.string() }),
      query: z.object({ page: z.coerce.number().optional() }),
      headers: z.object({ 'x-actor': z.string() }),
      response: User,
      transform: (body) => body,
      rateLimit: { windowMs: 1000, max: 5 },
      cache: { maxAge: 60 },
      limits: { maxDepth: 5 },
      allErrors: true,
      sanitize: { exposeSchemaCodes: true },
      warnings: { missingResponseSchema: false },
      summary: 'Create a user',
      description: 'Creates one user',
      tags: ['users'],
      deprecated: false,
      security: [],
      bodyType: 'json',
      externalDocs: { url: 'https://example.com/users' },
      extensions: { 'x-internal': true },
      responseHeaders: { 'X-Rate': { description: 'left' } },
      operationId: 'createUser',
    })
    expect(() => handle(route, () => undefined)).not.toThrow()
    expect(() => validate({ sends: User })).not.toThrow()
  })

  it('checks the keys of warnings and their values', () => {
    expect(() => validate({ warnings: { missingSchema: false } as never })).toThrow(
      misuse(
        'SG_ERR_UNKNOWN_OPTION',
        'shapeguard: warnings: missingSchema is not an option (missingResponseSchema)',
      ),
    )
    expect(() => validate({ warnings: { missingResponseSchema: 'no' } as never })).toThrow(
      misuse(
        'SG_ERR_INVALID_OPTION',
        'shapeguard: warnings.missingResponseSchema: must be a boolean',
      ),
    )
    expect(() => validate({ warnings: false as never })).toThrow(
      misuse('SG_ERR_INVALID_OPTION', 'shapeguard: warnings: must be an object'),
    )
  })

  it('checks the keys of sanitize, and that it is an object', () => {
    expect(() => validate({ sanitize: { exposeMessages: false } as never })).toThrow(
      misuse(
        'SG_ERR_UNKNOWN_OPTION',
        'shapeguard: sanitize: exposeMessages is not an option (exposeFieldName, exposeMessage, exposeEnumValues, exposeSchemaCodes)',
      ),
    )
    expect(() => validate({ sanitize: true as never })).toThrow(
      'shapeguard: sanitize: must be an object',
    )
  })

  it('says where a schema goes when one is given as the route itself', () => {
    const message = (name: string) =>
      `shapeguard: ${name}: takes a route, not a schema, give the schema as one of its parts, e.g. { body: schema }`
    for (const schema of [User, zodAdapter(User), v.object({ id: v.number() })]) {
      expect(() => validate(schema as never)).toThrow(
        misuse('SG_ERR_NOT_A_ROUTE', message('validate()')),
      )
      expect(() => handle(schema as never, () => undefined)).toThrow(
        misuse('SG_ERR_NOT_A_ROUTE', message('handle()')),
      )
      expect(() => defineRoute(schema as never)).toThrow(
        misuse('SG_ERR_NOT_A_ROUTE', message('defineRoute()')),
      )
    }
  })
})
