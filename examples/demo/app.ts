import express from 'express'
import {
  AppError,
  createRouter,
  defineRoute,
  errorHandler,
  handle,
  notFoundHandler,
  shapeguard,
  verifyWebhook,
  withShape,
} from 'shapeguard'
import { serveDocs } from 'shapeguard/openapi'
import * as z from 'zod'
import { demoOpenAPI } from './openapi.js'

const User = z.object({ id: z.number(), name: z.string(), email: z.email() })
const CreateUser = z.object({ name: z.string().trim().min(1), email: z.email() })
const UserId = z.object({ id: z.coerce.number().int().min(1) })

// Stored users carry a field clients must never see: the response schema strips it.
interface StoredUser extends z.infer<typeof User> {
  passwordHash: string
}

const CouponExpired = AppError.define<{ coupon: string }>('COUPON_EXPIRED', 410, 'Coupon expired')
const UnknownCoupon = AppError.define('UNKNOWN_COUPON', 400, 'No such coupon')

// A response schema describes the envelope's `data`: for res.paginated, the page object.
const UserPage = z.object({
  items: z.array(User),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  pages: z.number(),
})
const listUsers = defineRoute({
  summary: 'List users, a page at a time',
  tags: ['users'],
  query: z.object({ page: z.coerce.number().int().min(1).default(1) }),
  response: UserPage,
})
const deleteUser = defineRoute({
  summary: 'Delete a user (admins only)',
  tags: ['users'],
  params: UserId,
  headers: z.object({ 'x-role': z.enum(['admin', 'member']).optional() }),
})
// The summaries and tags document the routes in the OpenAPI document (/docs/openapi.json).
const createUser = defineRoute({
  summary: 'Create a user',
  tags: ['users'],
  body: CreateUser,
  response: User,
})
const getUser = defineRoute({
  summary: 'Get a user',
  tags: ['users'],
  params: UserId,
  response: User,
})
const feed = defineRoute({
  summary: 'The user feed, by cursor',
  tags: ['shop'],
  query: z.object({ after: z.coerce.number().int().min(0).default(0) }),
  // For res.cursorPaginated, the page of items and its cursors.
  response: z.object({
    items: z.array(User),
    nextCursor: z.string().nullable(),
    prevCursor: z.string().nullable(),
    hasMore: z.boolean(),
  }),
})
const checkout = defineRoute({
  summary: 'Check out',
  tags: ['shop'],
  body: z.object({ coupon: z.string().optional() }).optional(),
  response: z.object({ order: z.string() }),
  errors: [CouponExpired, UnknownCoupon],
})

/**
 * The demo API: every shapeguard feature that works shows itself here.
 * @param serverUrl where it listens, for its OpenAPI document and the docs built from it;
 * default `http://localhost:3000`
 */
export function createApp(serverUrl?: string) {
  const users = new Map<number, StoredUser>([
    [1, { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', passwordHash: 'x1' }],
    [2, { id: 2, name: 'Alan Turing', email: 'alan@example.com', passwordHash: 'x2' }],
    [3, { id: 3, name: 'Grace Hopper', email: 'grace@example.com', passwordHash: 'x3' }],
  ])
  // Ids are never reused: after a DELETE, users.size + 1 would overwrite a live user.
  let lastId = users.size

  const app = express()
  // shapeguard() first: even a body the JSON parser rejects is answered in the app's envelope.
  app.use(
    shapeguard({
      response: { includeRequestId: true },
      // Pretty lines in development, JSON in production; /slow crosses the threshold.
      logger: { slowThreshold: 200, logClientIp: true },
    }),
  )
  // A signed webhook (GitHub's scheme), before the JSON parser: the signature covers raw bytes.
  app.post(
    '/webhooks/github',
    express.raw({ type: '*/*', limit: '64kb' }),
    verifyWebhook({ provider: 'github', secret: process.env.DEMO_WEBHOOK_SECRET ?? 'demo-secret' }),
    (req, res) => {
      const data = { event: req.get('x-github-event') ?? null, bytes: req.body.length }
      res.ok({ data, status: 200 })
    },
  )
  app.use(express.json({ limit: '2kb' }))

  app.get('/health', withShape('raw'), (_req, res) => res.ok({ data: { status: 'ok' } }))
  app.get(
    '/slow',
    ...handle(
      { summary: 'A slow answer (logged as SLOW)', response: z.object({ waited: z.number() }) },
      async (_req, res) => {
        await new Promise((resolve) => setTimeout(resolve, 250))
        res.ok({ data: { waited: 250 }, message: 'logged with SLOW' })
      },
    ),
  )

  const userRoutes = createRouter()
  userRoutes.get(
    '/',
    ...handle(listUsers, (req, res) => {
      const { page } = req.query
      const limit = 2
      const all = [...users.values()]
      res.paginated({
        data: all.slice((page - 1) * limit, page * limit),
        total: all.length,
        page,
        limit,
      })
    }),
  )
  userRoutes.post(
    '/',
    ...handle(createUser, async (req, res) => {
      const { name, email } = req.body
      if ([...users.values()].some((u) => u.email === email)) throw AppError.conflict('User')
      const user = { id: ++lastId, name, email, passwordHash: 'new' }
      users.set(user.id, user)
      res.created({ data: user, message: 'User created' })
    }),
  )
  userRoutes
    .route('/:id')
    .get(
      ...handle(getUser, async (req, res) => {
        const user = users.get(req.params.id)
        if (!user) throw AppError.notFound('User')
        res.ok({ data: user })
      }),
    )
    .delete(
      ...handle(deleteUser, (req, res) => {
        if (req.headers['x-role'] !== 'admin') throw AppError.forbidden('Only admins delete users')
        users.delete(req.params.id)
        res.noContent()
      }),
    )
  app.use('/users', userRoutes)

  app.get(
    '/feed',
    ...handle(feed, (req, res) => {
      const { after } = req.query
      const items = [...users.values()]
        .filter((u) => u.id > after)
        .slice(0, 2)
        .map(({ passwordHash, ...u }) => u)
      const last = items.at(-1)
      const hasMore = last !== undefined && [...users.keys()].some((id) => id > last.id)
      res.cursorPaginated({ data: items, nextCursor: hasMore ? String(last.id) : null, hasMore })
    }),
  )

  app.get(
    '/me',
    withShape({ id: '{data.user.id}', name: '{data.user.name}', ok: '{success}' }),
    (_req, res) => res.ok({ data: { user: users.get(1) } }),
  )

  app.post(
    '/checkout',
    ...handle(checkout, (req, res) => {
      const coupon = req.body?.coupon ?? ''
      if (coupon === 'SPRING') throw CouponExpired({ coupon })
      if (coupon !== '') return res.fail({ code: 'UNKNOWN_COUPON', message: 'No such coupon' })
      res.accepted({ data: { order: 'ord_1' } })
    }),
  )

  app.get('/errors/crash', () => {
    throw new Error('Simulated bug: cannot read properties of undefined')
  })

  // The docs: the OpenAPI document of the routes above (all registered by now), read by Scalar at
  // /docs, Swagger UI at /docs/swagger and Redoc at /docs/redoc, each page's files served from
  // its installed package; the document and the client collections are served beside Scalar.
  const spec = demoOpenAPI(app, serverUrl)
  app.use('/docs/swagger', serveDocs(spec, { ui: 'swagger', assets: 'local' }))
  app.use('/docs/redoc', serveDocs(spec, { ui: 'redoc', assets: 'local' }))
  app.use(
    '/docs',
    serveDocs(spec, {
      assets: 'local',
      exports: {
        postman: '/docs/postman.json',
        insomnia: '/docs/insomnia.json',
        bruno: '/docs/bruno.json',
      },
    }),
  )

  app.use(notFoundHandler())
  app.use(errorHandler())
  return app
}

/** What the demo prints on start: one line per URL worth opening. */
export const demoUrls = [
  '/health',
  '/users',
  '/users?page=2',
  '/users/1',
  '/feed',
  '/me',
  '/slow',
  '/docs',
  '/docs/swagger',
  '/docs/redoc',
  '/docs/openapi.json',
  '/docs/postman.json',
] as const

/** Each error path, as a request and the answer it gets (`npm run demo` prints them as curl lines). */
export const demoErrors = [
  { method: 'GET', url: '/users/99', status: 404, shows: 'AppError.notFound' },
  { method: 'GET', url: '/nowhere', status: 404, shows: 'notFoundHandler' },
  { method: 'PATCH', url: '/users/1', status: 405, shows: 'createRouter: Allow header' },
  { method: 'DELETE', url: '/users/1', status: 403, shows: 'AppError.forbidden' },
  { method: 'POST', url: '/users', body: '{}', status: 422, shows: 'handle(): body schema' },
  {
    method: 'POST',
    url: '/users',
    body: '[]',
    status: 422,
    shows: 'Expected object, received array',
  },
  { method: 'GET', url: '/users/abc', status: 422, shows: 'handle(): params schema' },
  { method: 'GET', url: '/users?page=0', status: 422, shows: 'handle(): query schema' },
  { method: 'GET', url: '/users?page=1&page=2', status: 400, shows: 'PARAM_POLLUTION guard' },
  {
    method: 'POST',
    url: '/users',
    body: '{"__proto__":{"admin":true}}',
    status: 400,
    shows: 'PROTO_POLLUTION guard',
  },
  {
    method: 'POST',
    url: '/users',
    body: '{"name":"Ada","email":"ada@example.com"}',
    status: 409,
    shows: 'AppError.conflict',
  },
  { method: 'POST', url: '/checkout', body: '{"coupon":"X"}', status: 400, shows: 'res.fail' },
  {
    method: 'POST',
    url: '/checkout',
    body: '{"coupon":"SPRING"}',
    status: 410,
    shows: 'AppError.define',
  },
  { method: 'POST', url: '/users', body: '{"name":', status: 400, shows: 'INVALID_JSON' },
  {
    method: 'POST',
    url: '/webhooks/github',
    body: '{"action":"opened"}',
    status: 400,
    shows: 'verifyWebhook: no X-Hub-Signature-256',
  },
  {
    method: 'POST',
    url: '/users',
    body: JSON.stringify({ name: 'x'.repeat(3000) }),
    status: 413,
    shows: 'PAYLOAD_TOO_LARGE',
  },
  {
    method: 'GET',
    url: '/errors/crash',
    status: 500,
    shows: 'programmer error (hidden in production)',
  },
] as const
