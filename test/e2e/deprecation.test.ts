import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { configureLogger, errorHandler, handle, shapeguard } from '../../src/index.js'
import { generateOpenAPI } from '../../src/openapi/index.js'
import { captureLogger, type Express, hosts, withLogging } from '../support/e2e.js'

// A deprecated route says so on every answer it gives (RFC 9745 Deprecation, RFC 8594 Sunset, a
// Link to its docs), in its document, and in development once per call in the log.

beforeAll(() => {
  configureLogger({ silent: true })
})

const Id = z.object({ id: z.string().regex(/^\d+$/) })
const old = handle(
  {
    params: Id,
    response: z.object({ id: z.string() }),
    deprecated: { since: '2026-01-01T00:00:00Z', sunset: new Date('2027-06-30T00:00:00Z') },
    externalDocs: { url: 'https://example.com/migrate-to-v2' },
  },
  (req, res) => {
    res.ok({ data: { id: req.params.id } })
  },
)
const bare = handle(
  { params: Id, deprecated: true, warnings: { missingResponseSchema: false } },
  (req, res) => {
    res.ok({ data: { id: req.params.id } })
  },
)
const current = handle({ params: Id, response: z.object({ id: z.string() }) }, (req, res) => {
  res.ok({ data: { id: req.params.id } })
})

function app(express: Express, debug: boolean, logger = captureLogger()) {
  const a = express()
  a.use(shapeguard({ debug, logger: { instance: logger } }))
  a.get('/v1/users/:id', ...old)
  a.get('/v0/users/:id', ...bare)
  a.get('/v2/users/:id', ...current)
  a.use(errorHandler())
  return a
}

const SINCE = `@${Date.parse('2026-01-01T00:00:00Z') / 1000}`

describe.each(hosts)('%s', (_, express) => {
  it('sends Deprecation, Sunset and the Link to its docs on a success and on each error', async () => {
    const server = app(express, false)
    for (const [path, status] of [
      ['/v1/users/7', 200],
      ['/v1/users/x', 422],
      [`/v1/users/${'9'.repeat(12_000)}`, 400],
    ] as const) {
      const res = await request(server).get(path)
      expect(res.status).toBe(status)
      expect(res.headers.deprecation).toBe(SINCE)
      expect(res.headers.sunset).toBe('Wed, 30 Jun 2027 00:00:00 GMT')
      expect(res.headers.link).toBe(
        '<https://example.com/migrate-to-v2>; rel="deprecation"; type="text/html"',
      )
    }
  })

  it('sends Deprecation @0 for deprecated: true, and nothing on a route that is not', async () => {
    const server = app(express, false)
    const res = await request(server).get('/v0/users/7')
    expect(res.headers.deprecation).toBe('@0')
    expect(res.headers.sunset).toBeUndefined()
    expect(res.headers.link).toBeUndefined()
    const now = await request(server).get('/v2/users/7')
    expect(now.headers.deprecation).toBeUndefined()
  })

  it('logs one warning per call in development, naming the route and not its values', async () => {
    const sink = captureLogger()
    const server = app(express, true, sink)
    await withLogging(async () => {
      await request(server).get('/v1/users/123456')
      await request(server).get('/v1/users/654321')
      await request(server).get('/v2/users/1')
    })
    const warned = sink.records.filter((r) => r.message?.includes('deprecated'))
    expect(warned.map((r) => [r.level, r.message])).toEqual([
      [
        'warn',
        'shapeguard: GET /v1/users/:id is deprecated (sunset Wed, 30 Jun 2027 00:00:00 GMT): its clients should move off it',
      ],
      [
        'warn',
        'shapeguard: GET /v1/users/:id is deprecated (sunset Wed, 30 Jun 2027 00:00:00 GMT): its clients should move off it',
      ],
    ])
    expect(JSON.stringify(warned)).not.toMatch(/123456|654321/)
  })

  it('logs no warning in production', async () => {
    const sink = captureLogger()
    await withLogging(() => request(app(express, false, sink)).get('/v1/users/1'))
    expect(sink.records.filter((r) => r.message?.includes('deprecated'))).toEqual([])
  })

  it('documents the operation as deprecated, with its headers', () => {
    const doc = generateOpenAPI({ title: 't', version: '1', app: app(express, false) })
    const op = (doc.paths as any)['/v1/users/{id}'].get
    expect(op.deprecated).toBe(true)
    expect(op['x-sunset']).toBe('2027-06-30')
    expect(Object.keys(op.responses['200'].headers)).toEqual(['Deprecation', 'Sunset'])
    expect((doc.paths as any)['/v0/users/{id}'].get.deprecated).toBe(true)
    expect((doc.paths as any)['/v2/users/{id}'].get.deprecated).toBeUndefined()
  })
})

describe('deprecated at definition', () => {
  const define = (deprecated: unknown, externalDocs?: { url: string }) => () =>
    handle({ deprecated, externalDocs } as never, () => {})

  it('refuses what is not true or { since?, sunset? } with dates', () => {
    expect(define('yes')).toThrow(/deprecated must be true, or \{ since\?, sunset\? \} with dates/)
    expect(define({ since: 'not a date' })).toThrow(
      /deprecated\.since must be a Date or a date string/,
    )
    expect(define({ sunset: 17 })).toThrow(/deprecated\.sunset must be a Date/)
    expect(define({ sunst: '2027-01-01' })).toThrow(
      /deprecated\.sunst is not an option \(since, sunset\)/,
    )
    expect(define({ since: '2027-01-01', sunset: '2026-01-01' })).toThrow(
      /sunset is before its since/,
    )
  })

  it.each(['https://x.test/a b>', 'https://例え.jp/migrate', 'https://x.test/\u0007'])(
    'sends no Link for a docs URL a header cannot carry (%j), and answers',
    async (url) => {
      const route = handle({ deprecated: true, externalDocs: { url } }, (_req, res) => {
        res.status(204).end()
      })
      const { default: express } = await import('express')
      const a = express()
      a.use(shapeguard({ debug: false }))
      a.get('/x', ...route)
      const res = await request(a).get('/x')
      expect(res.status).toBe(204)
      expect(res.headers.deprecation).toBe('@0')
      expect(res.headers.link).toBeUndefined()
    },
  )

  it('accepts false and leaves the route as it was', () => {
    expect(define(false)).not.toThrow()
  })
})
