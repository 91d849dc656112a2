import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { shapeguard, withShape } from '../../src/index.js'
import { captureLogger, hosts, withLogging } from '../support/e2e.js'

describe.each(hosts)('the withShape missing-token warning on %s', (_, express) => {
  it('names the token in its metadata and logs the route, never the query string', async () => {
    const logger = captureLogger()
    const app = express()
    app.use(
      shapeguard({
        debug: true,
        logger: { instance: logger },
        warnings: { missingResponseSchema: false },
      }),
    )
    app.get('/users/:id', withShape({ name: '{data.nmae}' }), (_req, res) =>
      res.ok({ data: { name: 'a' } }),
    )
    await withLogging(() => request(app).get('/users/42?apiKey=QUERYSECRET&q=hello'))
    const warning = logger.records.find((r) => r.level === 'warn')
    expect(warning?.message).toBe('withShape: {data.nmae} resolved to nothing')
    expect(warning?.meta).toEqual({
      requestId: expect.stringMatching(/^req_/),
      missing: '{data.nmae}',
      method: 'GET',
      endpoint: '/users/:id',
    })
    const text = JSON.stringify(logger.records)
    expect(text).not.toContain('QUERYSECRET')
    expect(text).not.toContain('hello')
  })
})
