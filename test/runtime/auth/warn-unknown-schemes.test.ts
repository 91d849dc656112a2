import request from 'supertest'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { errorHandler, handle, shapeguard } from '../../../src/index.js'
import { warnUnknownSchemes } from '../../../src/runtime/auth/warn-unknown-schemes.js'
import { configureLogger, logger, resetLogger } from '../../../src/runtime/logging/logger.js'
import { resolveConfig } from '../../../src/runtime/middleware/resolve-config.js'
import { captureLogger, hosts } from '../../support/e2e.js'

let error: ReturnType<typeof vi.fn>

beforeEach(() => {
  configureLogger({ silent: false })
  error = vi.fn()
  vi.spyOn(logger, 'error').mockImplementation(error as never)
})

afterEach(() => {
  vi.restoreAllMocks()
  resetLogger()
})

const bearer = () => 'user'
const route = (security: (string | string[])[]) =>
  handle({ security, warnings: { missingResponseSchema: false } } as never, (_req, res) =>
    res.ok({ data: null }),
  )

describe.each(hosts)('warnUnknownSchemes on %s', (_, express) => {
  it("logs one line per route naming an undeclared scheme, at the app's first request, once", async () => {
    const app = express()
    app.use(shapeguard({ auth: { bearer }, debug: true }))
    app.get('/ok', ...route(['bearer']))
    const v1 = express.Router()
    v1.post('/admin/:id', ...route(['bearer', ['admin', 'bearer']]))
    app.use('/v1', v1)
    app.use(errorHandler())
    await request(app).get('/ok').set('Authorization', 'Bearer t')
    await request(app).get('/ok')
    expect(error.mock.calls).toEqual([
      [
        'shapeguard: the route POST /v1/admin/:id: security: "admin" is not a scheme of auth (bearer): every request of it is answered 500',
      ],
    ])
  })

  it('reads the schemes of the shapeguard() a router mounts for its own routes', () => {
    const app = express()
    app.use(shapeguard({ auth: { bearer } }))
    const admin = express.Router()
    admin.use(shapeguard({ auth: { admin: { type: 'bearer', verify: bearer } } }))
    admin.get('/', ...route(['admin']))
    app.use('/admin', admin)
    app.get('/me', ...route(['admin']))
    warnUnknownSchemes(app, resolveConfig({ auth: { bearer } }))
    expect(error).toHaveBeenCalledTimes(1)
    expect(String(error.mock.calls[0]?.[0])).toContain('the route GET /me: security: "admin"')
  })

  it('says nothing in production, nor of what is not an app', async () => {
    const app = express()
    app.use(shapeguard({ auth: { bearer }, debug: false, logger: { instance: captureLogger() } }))
    app.get('/x', ...route(['nope']))
    app.use(errorHandler())
    expect((await request(app).get('/x')).status).toBe(500)
    for (const value of [undefined, null, 'app', {}]) warnUnknownSchemes(value, resolveConfig({}))
    expect(error.mock.calls.filter(([m]) => String(m).includes('is not a scheme'))).toEqual([])
  })
})
