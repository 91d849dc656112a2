import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { RequestHandler } from 'express'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as z from 'zod'
import {
  configureLogger,
  errorHandler,
  handle,
  type ShapeguardConfig,
  shapeguard,
  withShape,
} from '../../src/index.js'
import { type Express, hosts } from '../support/e2e.js'

beforeAll(() => {
  configureLogger({ silent: true })
})

interface Raw {
  status: number
  /** Every header line as sent, in order, but Date (the clock). */
  headers: string[]
  body: Buffer
}

// One request; the answer's bytes and header lines exactly as they came.
function exchange(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const lines: string[] = []
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i]!.toLowerCase() !== 'date') {
            lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`)
          }
        }
        resolve({ status: res.statusCode ?? 0, headers: lines, body: Buffer.concat(chunks) })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

// The way every answer went before: an own `res.json` makes shapeguard hand the envelope to it.
const viaResJson: RequestHandler = (_req, res, next) => {
  res.json = res.json.bind(res)
  next()
}

const User = z.object({
  id: z.number(),
  name: z.string(),
  email: z.email(),
  role: z.enum(['admin', 'viewer']),
  nick: z.string().optional(),
  address: z.object({ city: z.string(), '10': z.string(), '2': z.string() }).nullable(),
  tags: z.array(z.string()),
  joined: z.date(),
  meta: z.record(z.string(), z.number()),
})

// Rows as a handler's store returns them (`role` a plain string, extra keys): typed as the schema's input.
const row = (i: number): z.input<typeof User> =>
  ({
    id: i,
    name: `"quoted" \\ \u2028 \u0007 é 😀 \ud800 </script>`,
    email: `u${i}@example.com`,
    role: 'admin',
    address: i % 2 === 0 ? null : { city: 'Zürich', '10': 'ten', '2': 'two', zip: 'stripped' },
    tags: ['a', 'b'],
    joined: new Date(Date.UTC(2024, 0, i + 1)),
    meta: { b: 2, a: 1, '1': 0 },
    password: 'never sent',
  }) as never

type Routes = (app: ReturnType<Express>, path: string, extra: RequestHandler[]) => void

// Each case is mounted twice on one app: at /new/… (this send path) and /old/… (res.json).
const cases: Record<string, Routes> = {
  'one user': (app, path, extra) =>
    app.get(path, ...extra, ...handle({ response: User }, (_req, res) => res.ok({ data: row(1) }))),
  'a large page (over 1,000 bytes)': (app, path, extra) =>
    app.get(
      path,
      ...extra,
      ...handle(
        {
          response: z.object({
            items: z.array(User),
            total: z.number(),
            page: z.number(),
            limit: z.number(),
            pages: z.number(),
          }),
        },
        (_req, res) =>
          res.paginated({
            data: Array.from({ length: 12 }, (_, i) => row(i)),
            total: 12,
            page: 1,
            limit: 12,
          }),
      ),
    ),
  'created, with a message': (app, path, extra) =>
    app.get(
      path,
      ...extra,
      ...handle({ response: User }, (_req, res) =>
        res.created({ data: row(2), message: 'Made \u2028 "it"' }),
      ),
    ),
  'raw data': (app, path, extra) => {
    const [check, handler] = handle({ response: User }, (_req, res) => res.ok({ data: row(3) }))
    app.get(path, ...extra, check, withShape('raw'), handler)
  },
  'no response schema': (app, path, extra) =>
    app.get(path, ...extra, (_req, res) => res.ok({ data: row(4) })),
  'a withShape map': (app, path, extra) => {
    const [check, handler] = handle({ response: User }, (_req, res) => res.ok({ data: row(5) }))
    app.get(path, ...extra, check, withShape({ who: '{data.name}', ok: '{success}' }), handler)
  },
  'data the schema rejects (500)': (app, path, extra) =>
    app.get(
      path,
      ...extra,
      ...handle({ response: User }, (_req, res) =>
        res.ok({ data: { ...row(6), id: 'x' } as never }),
      ),
    ),
  'a BigInt (500)': (app, path, extra) =>
    app.get(
      path,
      ...extra,
      ...handle({ response: z.object({ v: z.unknown() }) }, (_req, res) =>
        res.ok({ data: { v: 1n } }),
      ),
    ),
  fail: (app, path, extra) =>
    app.get(path, ...extra, (_req, res) =>
      res.fail({ code: 'NOPE', message: 'No "way"', status: 409, details: { a: 1 } }),
    ),
  'a status of 204': (app, path, extra) =>
    app.get(
      path,
      ...extra,
      ...handle({ response: User }, (_req, res) => res.ok({ data: row(7), status: 204 })),
    ),
  'a Content-Type set by the handler': (app, path, extra) =>
    app.get(
      path,
      ...extra,
      ...handle({ response: User }, (_req, res) => {
        res.type('application/vnd.api+json')
        res.ok({ data: row(8) })
      }),
    ),
  'an ETag set by the handler': (app, path, extra) =>
    app.get(
      path,
      ...extra,
      ...handle({ response: User }, (_req, res) => {
        res.set('ETag', '"mine"')
        res.ok({ data: row(9) })
      }),
    ),
}

const settings: Array<[string, (app: ReturnType<Express>) => void, ShapeguardConfig?]> = [
  ['default settings', () => {}],
  ['etag off', (app) => app.set('etag', false)],
  ['strong etag', (app) => app.set('etag', 'strong')],
  [
    'a custom etag function',
    (app) => app.set('etag', (body: Buffer, encoding?: string) => `"${body.length}-${encoding}"`),
  ],
  ['json spaces', (app) => app.set('json spaces', 2)],
  ['json escape', (app) => app.set('json escape', true)],
  [
    'json replacer',
    (app) => app.set('json replacer', (k: string, v: unknown) => (k === 'email' ? undefined : v)),
  ],
  [
    'a renamed envelope',
    () => {},
    { response: { shape: { ok: '{success}', '1': '{message}', result: '{data}' } } },
  ],
]

describe.each(hosts)('the JSON send path on %s', (_, express) => {
  describe.each(settings)('%s', (_setting, configure, config) => {
    let port = 0
    let close = () => Promise.resolve()
    let sends = 0
    beforeAll(async () => {
      const app = express()
      configure(app)
      // Production answers: a development 500 carries the stack, whose frames name the sender.
      app.use(shapeguard({ debug: false, requestId: { generator: () => 'fixed-id' }, ...config }))
      // Counts Express's own send by what only it does, res.set('Content-Length'): wrapping
      // res.send itself would send every answer through it (an override is always honoured).
      const set = app.response.set
      app.response.set = function (this: unknown, ...args: unknown[]) {
        if (args[0] === 'Content-Length') sends++
        return (set as (...a: unknown[]) => unknown).apply(this, args)
      } as never
      for (const [name, mount] of Object.entries(cases)) {
        const slug = Object.keys(cases).indexOf(name)
        mount(app, `/new/${slug}`, [])
        mount(app, `/old/${slug}`, [viaResJson])
      }
      app.use(errorHandler())
      const server = app.listen(0, '127.0.0.1')
      await new Promise((resolve) => server.once('listening', resolve))
      port = (server.address() as AddressInfo).port
      close = () => new Promise((resolve) => server.close(() => resolve()))
    })
    afterAll(() => close())

    it.each(Object.keys(cases))(
      '%s: the same status, header lines and bytes as res.json',
      async (name) => {
        const slug = Object.keys(cases).indexOf(name)
        for (const method of ['GET', 'HEAD']) {
          const before = await exchange(port, method, `/old/${slug}`)
          const after = await exchange(port, method, `/new/${slug}`)
          expect(after.status).toBe(before.status)
          expect(after.headers).toEqual(before.headers)
          expect(after.body.equals(before.body)).toBe(true)
        }
      },
    )

    it('answers a conditional GET with the same 304, and a stale one with the same 200', async () => {
      const slug = 0
      const first = await exchange(port, 'GET', `/new/${slug}`)
      const etag = first.headers.find((h) => h.startsWith('ETag: '))?.slice(6)
      const lastModified = 'Wed, 21 Oct 2015 07:28:00 GMT'
      for (const headers of [
        ...(etag === undefined ? [] : [{ 'if-none-match': etag }]),
        { 'if-none-match': '"other"' },
        { 'if-modified-since': lastModified },
      ]) {
        for (const method of ['GET', 'HEAD']) {
          const before = await exchange(port, method, `/old/${slug}`, headers)
          const after = await exchange(port, method, `/new/${slug}`, headers)
          expect(after.status).toBe(before.status)
          expect(after.headers).toEqual(before.headers)
          expect(after.body.equals(before.body)).toBe(true)
          if (etag !== undefined && headers['if-none-match'] === etag)
            expect(after.status).toBe(304)
        }
      }
    })

    it("writes a plain answer itself, without Express's res.send, unless a json setting asks for it", async () => {
      sends = 0
      await exchange(port, 'GET', `/new/${0}`)
      const viaExpress = _setting.startsWith('json ')
      expect(sends > 0).toBe(viaExpress)
    })
  })
})

describe.each(hosts)("the response schema's writer on %s", (_, express) => {
  it('writes the envelope without building and stringifying it, with the same bytes', async () => {
    const app = express()
    app.use(shapeguard({ requestId: { generator: () => 'fixed-id' } }))
    const Small = z.object({ id: z.number(), name: z.string() })
    for (const [path, extra] of [
      ['/new', []],
      ['/old', [viaResJson]],
    ] as const) {
      app.get(
        path,
        ...extra,
        ...handle({ response: Small }, (_req, res) =>
          res.ok({ data: { id: 1, name: 'a', secret: 's' } as never }),
        ),
      )
    }
    const server = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    const { port } = server.address() as AddressInfo
    const stringify = vi.spyOn(JSON, 'stringify')
    try {
      const envelopes = () => stringify.mock.calls.filter(([v]) => typeof v === 'object').length
      const after = await exchange(port, 'GET', '/new')
      expect(envelopes()).toBe(0)
      const before = await exchange(port, 'GET', '/old')
      expect(envelopes()).toBeGreaterThan(0)
      expect(after.body.toString()).toBe('{"success":true,"message":"","data":{"id":1,"name":"a"}}')
      expect(after.body.equals(before.body)).toBe(true)
      expect(after.headers).toEqual(before.headers)
    } finally {
      stringify.mockRestore()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe.each(hosts)('the JSON send path in a mounted app on %s', (_, express) => {
  it('follows the settings the app inherits from the app it is mounted on, as res.json does', async () => {
    // The settings are read without app.get: a mounted app's own settings object holds only what
    // was set on it, and the parent's `json spaces` reaches it through the prototype.
    const app = express()
    app.set('json spaces', 2)
    app.use(shapeguard({ requestId: { generator: () => 'fixed-id' } }))
    const sub = express()
    sub.get('/new', (_req, res) => res.ok({ data: { id: 1 } }))
    sub.get('/old', viaResJson, (_req, res) => res.ok({ data: { id: 1 } }))
    app.use('/sub', sub)
    const server = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    const { port } = server.address() as AddressInfo
    try {
      const before = await exchange(port, 'GET', '/sub/old')
      const after = await exchange(port, 'GET', '/sub/new')
      expect(after.headers).toEqual(before.headers)
      expect(after.body.toString()).toBe(before.body.toString())
      expect(after.body.toString()).toContain('\n  "success": true')
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
