import express from 'express'
import {
  AppError,
  asyncHandler,
  createRouter,
  errorHandler,
  notFoundHandler,
  shapeguard,
  withShape,
} from 'shapeguard'

interface User {
  id: number
  name: string
  email: string
}

const CouponExpired = AppError.define<{ coupon: string }>('COUPON_EXPIRED', 410, 'Coupon expired')

/** The demo API: every shapeguard feature that works shows itself here. */
export function createApp() {
  const users = new Map<number, User>([
    [1, { id: 1, name: 'Ada Lovelace', email: 'ada@example.com' }],
    [2, { id: 2, name: 'Alan Turing', email: 'alan@example.com' }],
    [3, { id: 3, name: 'Grace Hopper', email: 'grace@example.com' }],
  ])

  const app = express()
  // shapeguard() first: even a body the JSON parser rejects is answered in the app's envelope.
  app.use(shapeguard())
  app.use(express.json({ limit: '2kb' }))

  app.get('/health', withShape('raw'), (_req, res) => res.ok({ data: { status: 'ok' } }))

  const userRoutes = createRouter()
  userRoutes.get('/', (req, res) => {
    const page = Math.max(1, Number(req.query.page ?? 1) || 1)
    const limit = 2
    const all = [...users.values()]
    res.paginated({
      data: all.slice((page - 1) * limit, page * limit),
      total: all.length,
      page,
      limit,
    })
  })
  userRoutes.post('/', (req, res) => {
    const { name, email } = (req.body ?? {}) as Partial<User>
    if (typeof name !== 'string' || typeof email !== 'string') {
      throw AppError.validation([
        ...(typeof name === 'string' ? [] : [{ field: 'name', message: 'Required' }]),
        ...(typeof email === 'string' ? [] : [{ field: 'email', message: 'Required' }]),
      ])
    }
    if ([...users.values()].some((u) => u.email === email)) throw AppError.conflict('User')
    const user = { id: users.size + 1, name, email }
    users.set(user.id, user)
    res.created({ data: user, message: 'User created' })
  })
  userRoutes
    .route('/:id')
    .get(
      asyncHandler(async (req, res) => {
        const user = users.get(Number(req.params.id))
        if (!user) throw AppError.notFound('User')
        res.ok({ data: user })
      }),
    )
    .delete((req, res) => {
      if (req.get('x-role') !== 'admin') throw AppError.forbidden('Only admins delete users')
      users.delete(Number(req.params.id))
      res.noContent()
    })
  app.use('/users', userRoutes)

  app.get('/feed', (req, res) => {
    const after = Number(req.query.after ?? 0)
    const items = [...users.values()].filter((u) => u.id > after).slice(0, 2)
    const last = items.at(-1)
    const hasMore = last !== undefined && last.id < users.size
    res.cursorPaginated({ data: items, nextCursor: hasMore ? String(last.id) : null, hasMore })
  })

  app.get(
    '/me',
    withShape({ id: '{data.user.id}', name: '{data.user.name}', ok: '{success}' }),
    (_req, res) => res.ok({ data: { user: users.get(1) } }),
  )

  app.post('/checkout', (req, res) => {
    const coupon = String((req.body as { coupon?: unknown } | undefined)?.coupon ?? '')
    if (coupon === 'SPRING') throw CouponExpired({ coupon })
    if (coupon !== '') return res.fail({ code: 'UNKNOWN_COUPON', message: 'No such coupon' })
    res.accepted({ data: { order: 'ord_1' } })
  })

  app.get('/errors/crash', () => {
    throw new Error('Simulated bug: cannot read properties of undefined')
  })

  app.use(notFoundHandler())
  app.use(errorHandler())
  return app
}

/** What the demo prints on start: one line per URL worth opening. */
export const demoUrls = ['/health', '/users', '/users?page=2', '/users/1', '/feed', '/me'] as const

/** Each error path, as a request and the answer it gets (`npm run demo` prints them as curl lines). */
export const demoErrors = [
  { method: 'GET', url: '/users/99', status: 404, shows: 'AppError.notFound' },
  { method: 'GET', url: '/nowhere', status: 404, shows: 'notFoundHandler' },
  { method: 'PATCH', url: '/users/1', status: 405, shows: 'createRouter: Allow header' },
  { method: 'DELETE', url: '/users/1', status: 403, shows: 'AppError.forbidden' },
  { method: 'POST', url: '/users', body: '{}', status: 422, shows: 'AppError.validation' },
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
