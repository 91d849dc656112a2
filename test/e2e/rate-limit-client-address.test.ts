import request from 'supertest'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { configureLogger, errorHandler, handle, shapeguard } from '../../src/index.js'
import { resetProxyWarnings } from '../../src/runtime/rate-limit/client-key.js'
import { captureLogger, type Express, hosts, withLogging } from '../support/e2e.js'

// Behind a proxy that writes `ip:port` (Azure Application Gateway), or a client that writes
// anything at all while 'trust proxy' trusts it, req.ip is whatever X-Forwarded-For said.

beforeAll(() => {
  configureLogger({ silent: true })
})
afterEach(() => {
  resetProxyWarnings()
})

const MAX = 2

function appOf(express: Express, logger = captureLogger()) {
  const app = express()
  app.set('trust proxy', true)
  app.use(shapeguard({ logger: { instance: logger } }))
  app.get(
    '/items/:id',
    ...handle({ rateLimit: { windowMs: 60_000, max: MAX } }, (req, res) =>
      res.ok({ data: { id: req.params.id } }),
    ),
  )
  app.use(errorHandler())
  return app
}

/** How many of the requests, one from each X-Forwarded-For value, got through. */
async function passed(app: ReturnType<Express>, forwarded: readonly string[]): Promise<number> {
  let through = 0
  for (const value of forwarded) {
    const res = await request(app).get('/items/1').set('X-Forwarded-For', value)
    expect([200, 429]).toContain(res.status)
    if (res.status === 200) through++
  }
  return through
}

const ports = (address: string) =>
  [80, 443, 8080, 51_234, 51_235, 65_535].map((p) => `${address}:${p}`)

describe.each(hosts)(
  '%s: the client behind a proxy that writes odd addresses',
  (_name, express) => {
    it('counts one IPv4 client once, whatever port the proxy wrote', async () => {
      const app = appOf(express)
      const spellings = [...ports('1.2.3.4'), '1.2.3.4', '::ffff:1.2.3.4', '[::ffff:1.2.3.4]:80']
      expect(await passed(app, spellings)).toBe(MAX)
      // Another client still has its own budget.
      expect(await passed(app, ['5.6.7.8:80', '5.6.7.8:81'])).toBe(MAX)
    })

    it('counts one IPv6 client once, bracketed with a port or spelt any way', async () => {
      const app = appOf(express)
      const spellings = [
        ...ports('[2001:db8::1]'),
        '[2001:DB8::1]:443',
        '2001:db8::1',
        '2001:0DB8:0000:0000:0000:0000:0000:0001',
        '[2001:db8:0:0::1]',
        '2001:db8:0:ff::9',
      ]
      expect(await passed(app, spellings)).toBe(MAX)
    })

    it('gives every request without an IP address one shared budget, and warns once, without the value', () =>
      withLogging(async () => {
        const logger = captureLogger()
        const app = appOf(express, logger)
        const hostile = [
          'unknown',
          'garbage',
          '01.2.3.4',
          '001.02.3.4',
          '1.2.3.4:99999',
          '1.2.3.4:',
          'x'.repeat(500),
          '[2001:db8::1',
          'host.example:443',
          ...Array.from({ length: 20 }, (_, i) => `garbage-${i}`),
        ]
        expect(await passed(app, hostile)).toBe(MAX)
        // Real clients are not in that budget.
        expect(await passed(app, ['203.0.113.9'])).toBe(1)
        const warnings = logger.records.filter((r) =>
          r.message?.includes("the one client 'unknown'"),
        )
        expect(warnings).toHaveLength(1)
        const logged = JSON.stringify(logger.records)
        for (const value of ['garbage', '01.2.3.4', 'xxxxxxxx', 'host.example']) {
          expect(logged).not.toContain(value)
        }
      }))
  },
)
