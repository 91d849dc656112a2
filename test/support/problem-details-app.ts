import request from 'supertest'
import * as z from 'zod'
import {
  AppError,
  createRouter,
  errorHandler,
  handle,
  health,
  notFoundHandler,
  type ShapeguardConfig,
  shapeguard,
  verifyWebhook,
} from '../../src/index.js'
import type { Express } from './e2e.js'

// The app the problem-details tests raise every code of the registry on, and how to raise each.

export const secret = 'whsec_problem_details'
export const PROBLEM = 'application/problem+json; charset=utf-8'
export const JSON_TYPE = 'application/json; charset=utf-8'

// The reason phrases RFC 9110 (and RFC 6585 for 429) registers, written out here.
export const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

const thrown: Record<string, () => unknown> = {
  unauthorized: () => AppError.unauthorized(),
  forbidden: () => AppError.forbidden(),
  conflict: () => AppError.conflict('User'),
  bug: () => new Error('db down'),
  getter: () =>
    AppError.custom('BROKEN', 'Broken details', 400, {
      get boom(): never {
        throw new Error('a getter of the details threw')
      },
    }),
}

const base: ShapeguardConfig = {
  response: { includeRequestId: true },
  validation: { limits: { maxDepth: 3, maxArrayLength: 3, maxStringLength: 10 } },
}

// A process is past a heap limit of one byte: every request of this app is shed.
function overloadedApp(express: Express, config: ShapeguardConfig) {
  const app = express()
  app.use(shapeguard({ ...base, ...config, overload: { maxHeapUsedBytes: 1 } }))
  app.get('/shed', (_req, res) => res.ok())
  return app
}

export function app(express: Express, config: ShapeguardConfig = {}) {
  const app = express()
  app.use(shapeguard({ ...base, ...config }))
  app.post(
    '/hooks/stripe',
    express.raw({ type: '*/*' }),
    verifyWebhook({ provider: 'stripe', secret }),
    (_req, res) => res.ok(),
  )
  app.use(express.json({ limit: '200b' }))
  app.post(
    '/users',
    ...handle({ body: z.object({ name: z.string().min(1) }) }, (req, res) =>
      res.ok({ data: req.body }),
    ),
  )
  app.get(
    '/search',
    ...handle({ query: z.object({ q: z.string().max(3).optional() }) }, (_req, res) => res.ok()),
  )
  app.get(
    '/files/:name',
    ...handle({ params: z.object({ name: z.string() }) }, (_req, res) => res.ok()),
  )
  app.post(
    '/login',
    ...handle({ rateLimit: { windowMs: 60_000, max: 0 } }, (_req, res) => res.ok()),
  )
  const down = {
    increment: async (): Promise<never> => {
      throw new Error('store down')
    },
  }
  app.get(
    '/closed',
    ...handle(
      { rateLimit: { windowMs: 60_000, max: 5, store: down, failOpen: false } },
      (_r, res) => res.ok(),
    ),
  )
  app.use(health({ checks: { db: () => false } }))
  app.get('/slow', ...handle({ timeout: 20 }, () => new Promise(() => {})))
  app.get('/throw/:kind', (req) => {
    throw thrown[req.params.kind!]!()
  })
  app.get('/fail', (_req, res) =>
    res.fail({
      code: 'OUT_OF_STOCK',
      message: 'Out of stock',
      status: 409,
      details: { sku: 'A-1' },
    }),
  )
  const items = createRouter()
  items.get('/items', (_req, res) => res.ok())
  app.use(items)
  app.use(notFoundHandler(), errorHandler())
  return Object.assign(app, { overloaded: overloadedApp(express, config) })
}

export type App = ReturnType<typeof app>
export const now = () => Math.floor(Date.now() / 1000)
const stripe = (app: App, header?: string) => {
  const r = request(app).post('/hooks/stripe').type('json')
  return (header === undefined ? r : r.set('Stripe-Signature', header)).send('{"id":"evt_1"}')
}
export const postUsers = (app: App, body: string, type = 'json') =>
  request(app).post('/users').type(type).send(body)

export interface Case {
  code: string
  status: number
  path: string
  send: (app: App) => request.Test
}

export const cases: Case[] = [
  {
    code: 'NOT_FOUND',
    status: 404,
    path: '/nowhere',
    send: (a) => request(a).get('/nowhere?token=x'),
  },
  {
    code: 'UNAUTHORIZED',
    status: 401,
    path: '/throw/unauthorized',
    send: (a) => request(a).get('/throw/unauthorized'),
  },
  {
    code: 'FORBIDDEN',
    status: 403,
    path: '/throw/forbidden',
    send: (a) => request(a).get('/throw/forbidden'),
  },
  {
    code: 'CONFLICT',
    status: 409,
    path: '/throw/conflict',
    send: (a) => request(a).get('/throw/conflict'),
  },
  {
    code: 'INTERNAL_ERROR',
    status: 500,
    path: '/throw/bug',
    send: (a) => request(a).get('/throw/bug'),
  },
  {
    code: 'METHOD_NOT_ALLOWED',
    status: 405,
    path: '/items',
    send: (a) => request(a).post('/items'),
  },
  {
    code: 'VALIDATION_ERROR',
    status: 422,
    path: '/users',
    send: (a) => postUsers(a, '{"name":""}'),
  },
  {
    code: 'RATE_LIMIT_EXCEEDED',
    status: 429,
    path: '/login',
    send: (a) => request(a).post('/login'),
  },
  {
    code: 'RATE_LIMIT_UNAVAILABLE',
    status: 503,
    path: '/closed',
    send: (a) => request(a).get('/closed'),
  },
  {
    code: 'HANDLER_TIMEOUT',
    status: 503,
    path: '/slow',
    send: (a) => request(a).get('/slow'),
  },
  {
    code: 'OVERLOADED',
    status: 503,
    path: '/shed',
    send: (a) => request(a.overloaded).get('/shed'),
  },
  {
    code: 'NOT_READY',
    status: 503,
    path: '/readyz',
    send: (a) => request(a).get('/readyz'),
  },
  {
    code: 'BODY_TOO_DEEP',
    status: 400,
    path: '/users',
    send: (a) => postUsers(a, '{"a":{"b":{"c":{}}}}'),
  },
  {
    code: 'BODY_ARRAY_TOO_LARGE',
    status: 400,
    path: '/users',
    send: (a) => postUsers(a, '{"a":[1,2,3,4]}'),
  },
  {
    code: 'STRING_TOO_LONG',
    status: 400,
    path: '/users',
    send: (a) => postUsers(a, '{"name":"abcdefghijk"}'),
  },
  {
    code: 'INVALID_CONTENT_TYPE',
    status: 415,
    path: '/users',
    send: (a) => postUsers(a, 'hello', 'text/plain'),
  },
  {
    code: 'PARAM_POLLUTION',
    status: 400,
    path: '/search',
    send: (a) => request(a).get('/search?q=a&q=b'),
  },
  {
    code: 'PROTO_POLLUTION',
    status: 400,
    path: '/users',
    send: (a) => postUsers(a, '{"__proto__":{"x":1}}'),
  },
  { code: 'INVALID_JSON', status: 400, path: '/users', send: (a) => postUsers(a, '{"name":') },
  {
    code: 'PAYLOAD_TOO_LARGE',
    status: 413,
    path: '/users',
    send: (a) => postUsers(a, JSON.stringify({ name: 'x'.repeat(300) })),
  },
  {
    code: 'BAD_REQUEST',
    status: 400,
    path: '/files/%25ZZ', // a % that starts no escape is escaped itself
    send: (a) => request(a).get('/files/%ZZ'),
  },
  { code: 'WEBHOOK_SIGNATURE_MISSING', status: 400, path: '/hooks/stripe', send: (a) => stripe(a) },
  {
    code: 'WEBHOOK_SIGNATURE_INVALID',
    status: 401,
    path: '/hooks/stripe',
    send: (a) => stripe(a, `t=${now()},v1=${'0'.repeat(64)}`),
  },
  {
    code: 'WEBHOOK_TIMESTAMP_MISSING',
    status: 400,
    path: '/hooks/stripe',
    send: (a) => stripe(a, `v1=${'0'.repeat(64)}`),
  },
  {
    code: 'WEBHOOK_TIMESTAMP_EXPIRED',
    status: 400,
    path: '/hooks/stripe',
    send: (a) => stripe(a, `t=${now() - 3600},v1=${'0'.repeat(64)}`),
  },
]
