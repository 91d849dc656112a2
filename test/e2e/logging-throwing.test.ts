import request from 'supertest'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AppError, errorHandler, logger, shapeguard } from '../../src/index.js'
import { resetLogger } from '../../src/runtime/logging/logger.js'
import { hosts } from '../support/e2e.js'
import { throwingLoggers } from '../support/throwing-loggers.js'

afterEach(() => {
  vi.restoreAllMocks()
  resetLogger()
})

describe.each(hosts)('a logger.instance that throws, on %s', (_, express) => {
  it.each(throwingLoggers().map((l) => [l.kind, l] as const))(
    "costs its lines, never the handler's answer nor the request logger's (%s)",
    async (_, broken) => {
      const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
      const app = express()
      app.use(shapeguard({ debug: true, logger: { instance: broken.instance } }))
      broken.arm()
      app.get('/orders/:id', (req, res) => {
        logger.info('loading')
        logger.warn({ orderId: req.params.id }, 'payment retried')
        res.ok({ data: { id: req.params.id } })
      })
      app.get('/missing', () => {
        logger.error('about to fail')
        throw AppError.notFound('Order')
      })
      app.use(errorHandler())
      const ok = await request(app).get('/orders/42')
      expect(ok.status).toBe(200)
      expect(ok.body.data).toEqual({ id: '42' })
      const missing = await request(app).get('/missing')
      expect(missing.status).toBe(404)
      expect(missing.body.error.code).toBe('NOT_FOUND')
      // The handlers' lines, the request logger's arrival and response lines: all reached it.
      expect(broken.calls()).toBeGreaterThanOrEqual(7)
      const lines = write.mock.calls.map((c) => String(c[0]))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/"lostLines":1,"message":"shapeguard: the logger threw/)
    },
  )
})
