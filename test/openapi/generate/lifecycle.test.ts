import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { handle, shapeguard } from '../../../src/index.js'
import { generateOpenAPI } from '../../../src/openapi/index.js'
import { hosts } from '../../support/e2e.js'

// A route's timeout and the app's load shedding are answers shapeguard sends: 503 HANDLER_TIMEOUT
// and 503 OVERLOADED, with Retry-After, documented where they apply, `code` narrowed to them.

type Any = Record<string, any>
const base = { title: 'T', version: '1', onWarning: () => {} }
const store = { increment: () => ({ count: 1, reset: 0 }) }
const op = (doc: Any, path: string, method = 'get') => doc.paths[path][method]
const codeOf = (doc: Any, name: string, media = 'application/json') => {
  const narrowed = doc.components.responses[name].content[media].schema.allOf[1]
  return media === 'application/json'
    ? narrowed.properties.error.properties.code
    : narrowed.properties.code
}

describe('generateOpenAPI: timeouts', () => {
  it('documents 503 HANDLER_TIMEOUT with Retry-After on a route with a handler timeout', () => {
    const doc = generateOpenAPI({
      ...base,
      routes: {
        'GET /slow': { timeout: 2000 },
        'GET /limits': { timeout: { handler: 500, retryAfter: 2 } },
        'GET /stream': { timeout: { idle: 1000 }, events: { tick: z.number() } },
        'GET /plain': {},
      },
    }) as Any
    for (const path of ['/slow', '/limits'])
      expect(op(doc, path).responses['503']).toEqual({
        $ref: '#/components/responses/HandlerTimeout',
      })
    // A stream's idle limit ends the stream with an error event, never a 503 answer.
    expect(op(doc, '/stream').responses).not.toHaveProperty('503')
    expect(op(doc, '/plain').responses).not.toHaveProperty('503')
    const response = doc.components.responses.HandlerTimeout as Any
    expect(response.description).toContain('`HANDLER_TIMEOUT`')
    expect(response.description).not.toContain('RATE_LIMIT_UNAVAILABLE')
    expect(response.headers['Retry-After'].schema).toEqual({ type: 'integer', minimum: 0 })
    expect(codeOf(doc, 'HandlerTimeout')).toEqual({ type: 'string', const: 'HANDLER_TIMEOUT' })
    // Only the responses some operation uses are kept.
    expect(Object.keys(doc.components.responses)).not.toContain('ServiceUnavailable')
  })

  it('combines the codes of one route: the rate limit failing closed and the timeout', async () => {
    const doc = generateOpenAPI({
      ...base,
      routes: {
        'GET /both': {
          timeout: 1000,
          rateLimit: { windowMs: 1000, max: 5, store, failOpen: false },
        },
        'GET /closed': { rateLimit: { windowMs: 1000, max: 5, store, failOpen: false } },
      },
    }) as Any
    expect(op(doc, '/both').responses['503'].$ref).toBe(
      '#/components/responses/RateLimitUnavailableOrHandlerTimeout',
    )
    expect(codeOf(doc, 'RateLimitUnavailableOrHandlerTimeout')).toEqual({
      type: 'string',
      enum: ['RATE_LIMIT_UNAVAILABLE', 'HANDLER_TIMEOUT'],
    })
    // The rate limit's alone keeps its name, narrowed to its one code.
    expect(op(doc, '/closed').responses['503'].$ref).toBe(
      '#/components/responses/ServiceUnavailable',
    )
    expect(codeOf(doc, 'ServiceUnavailable')).toEqual({
      type: 'string',
      const: 'RATE_LIMIT_UNAVAILABLE',
    })
    expect(doc.components.responses.ServiceUnavailable).not.toHaveProperty('headers')
    expect(await new Validator().validate(doc as never)).toEqual({ valid: true })
  })

  it('adds a declared 503 code the shared response does not describe, and not one it does', () => {
    const doc = generateOpenAPI({
      ...base,
      routes: {
        'GET /a': { timeout: 1000, errors: ['HANDLER_TIMEOUT'] },
        'GET /b': { timeout: 1000, errors: ['SHUTTING_DOWN'] },
      },
    }) as Any
    expect(op(doc, '/a').responses['503']).toEqual({
      $ref: '#/components/responses/HandlerTimeout',
    })
    const b = op(doc, '/b').responses['503']
    expect(b.description).toContain('Also declared by the route: `SHUTTING_DOWN`')
    expect(b.headers['Retry-After']).toBeDefined()
    const [shared, declared] = b.content['application/json'].schema.anyOf
    expect(shared.allOf[1].properties.error.properties.code.const).toBe('HANDLER_TIMEOUT')
    expect(declared.properties.error.properties.code.const).toBe('SHUTTING_DOWN')
  })
})

describe.each(hosts)('%s: generateOpenAPI({ app }) timeout and overload', (_, express) => {
  it("reads the app's timeout: every route documents 503 HANDLER_TIMEOUT, under problem+json too", async () => {
    const app = express()
    app.use(shapeguard({ timeout: 5000, errors: { format: 'problem+json' } }))
    app.get('/a', ...handle({}, (_req, res) => res.ok({})))
    app.get('/b', ...handle({ timeout: { idle: 100 } }, (_req, res) => res.ok({})))
    const doc = generateOpenAPI({ ...base, app }) as Any
    for (const path of ['/a', '/b'])
      expect(op(doc, path).responses['503'].$ref).toBe('#/components/responses/HandlerTimeout')
    expect(codeOf(doc, 'HandlerTimeout', 'application/problem+json')).toEqual({
      type: 'string',
      const: 'HANDLER_TIMEOUT',
    })
    expect(doc.components.responses.HandlerTimeout.headers).toHaveProperty('Retry-After')
    expect(await new Validator().validate(doc as never)).toEqual({ valid: true })
  })

  it('documents 503 OVERLOADED on every route with overload, with the timeout where set', () => {
    const app = express()
    app.use(shapeguard({ overload: { maxEventLoopDelayMs: 200 } }))
    app.get('/a', ...handle({}, (_req, res) => res.ok({})))
    app.get('/slow', ...handle({ timeout: 100 }, (_req, res) => res.ok({})))
    const doc = generateOpenAPI({ ...base, app }) as Any
    expect(op(doc, '/a').responses['503'].$ref).toBe('#/components/responses/Overloaded')
    expect(op(doc, '/slow').responses['503'].$ref).toBe(
      '#/components/responses/HandlerTimeoutOrOverloaded',
    )
    expect(codeOf(doc, 'Overloaded')).toEqual({ type: 'string', const: 'OVERLOADED' })
    expect(codeOf(doc, 'HandlerTimeoutOrOverloaded')).toEqual({
      type: 'string',
      enum: ['HANDLER_TIMEOUT', 'OVERLOADED'],
    })
    expect(doc.components.responses.Overloaded.headers).toHaveProperty('Retry-After')
  })

  it('documents no 503 for an app without timeout or overload', () => {
    const app = express()
    app.use(shapeguard())
    app.get('/a', ...handle({}, (_req, res) => res.ok({})))
    expect(op(generateOpenAPI({ ...base, app }), '/a').responses).not.toHaveProperty('503')
  })
})
