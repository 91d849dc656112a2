import express from 'express'
import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import { installSink, logger, resetLogger } from '../../../src/runtime/logging/logger.js'
import type { LoggerOptions } from '../../../src/runtime/logging/options.js'
import { resolveLoggerOptions } from '../../../src/runtime/logging/options.js'
import { resolveBackend } from '../../../src/runtime/logging/resolve-backend.js'
import { BACKENDS, capture, settle } from '../../support/log-capture.js'
import { makeApp } from '../../support/logging-app.js'

afterEach(() => resetLogger())

const BODY = {
  name: 'ada',
  dob: '1815-12-10',
  user: { dob: '1815-12-10', city: 'London' },
  new_password: 'pw1',
  'Access-Token': 'tok1',
  client_secret: 'sec1',
}

async function postLogged(backend: (typeof BACKENDS)[number], options: LoggerOptions) {
  const out = capture()
  const app = makeApp(
    { pretty: false, logIncoming: false, logRequestBody: true, logResponseBody: true, ...options },
    { stream: out, backend },
  )
  await request(app).post('/users').send(BODY)
  await settle()
  return out
}

describe.each(BACKENDS)('request log redaction through %s', (backend) => {
  it.each([['req.body.dob'], ['body.dob'], ['reqBody.dob'], ['*.dob'], ['dob']])(
    'redact: [%j] hides the request body field, at every depth it names',
    async (path) => {
      const out = await postLogged(backend, { redact: [path] })
      const { reqBody } = out.records()[0] as { reqBody: Record<string, unknown> }
      expect(reqBody.dob).toBe('[REDACTED]')
      expect(reqBody.name).toBe('ada')
      const text = out.chunks.join('')
      if (path !== 'req.body.dob' && path !== 'body.dob' && path !== 'reqBody.dob') {
        expect(text).not.toContain('1815-12-10')
      }
    },
  )

  it('redacts default secrets under any spelling, and a whole body by its path', async () => {
    const out = await postLogged(backend, { redact: ['req.body'] })
    const text = out.chunks.join('')
    expect(out.records()[0]).toMatchObject({ reqBody: '[REDACTED]' })
    for (const secret of ['pw1', 'tok1', 'sec1', '1815']) expect(text).not.toContain(secret)
  })

  it('res.body paths reach the response body only', async () => {
    const out = await postLogged(backend, { redact: ['res.body.data.name'] })
    expect(out.records()[0]).toMatchObject({
      reqBody: { name: 'ada' },
      resBody: { data: { name: '[REDACTED]' } },
    })
  })

  it('the same redaction applies in pretty mode', async () => {
    const out = await postLogged(backend, { pretty: true, redact: ['req.body.dob'] })
    const text = out.chunks.join('')
    expect(text).toContain('reqBody: {"name":"ada","dob":"[REDACTED]"')
    for (const secret of ['pw1', 'tok1', 'sec1']) expect(text).not.toContain(secret)
  })
})

describe('logger.info with a real request', () => {
  it.each(BACKENDS)('never prints Authorization, Cookie or API keys (%s)', async (backend) => {
    const out = capture()
    const options = resolveLoggerOptions({ pretty: false, redact: ['req.headers.x-tenant'] }, true)
    installSink(resolveBackend(options, { stream: out, backend }), options)
    const app = express()
    app.get('/', (req, res) => {
      logger.info({ headers: req.headers }, 'incoming')
      logger.info({ req: { headers: req.headers, rawHeaders: req.rawHeaders } }, 'again')
      logger.info({ req }, 'the whole request object')
      res.end()
    })
    await request(app)
      .get('/')
      .set('Authorization', 'Bearer sk_live_AUTH')
      .set('Cookie', 'sid=COOKIEVALUE')
      .set('X-Api-Key', 'APIKEYVALUE')
      .set('Proxy-Authorization', 'Basic PROXYVALUE')
      .set('X-Tenant', 'TENANTVALUE')
    await settle()
    const text = out.chunks.join('')
    for (const secret of ['AUTH', 'COOKIEVALUE', 'APIKEYVALUE', 'PROXYVALUE', 'TENANTVALUE']) {
      expect(text).not.toContain(secret)
    }
    const [first] = out.records() as { headers: Record<string, unknown> }[]
    expect(first?.headers).toMatchObject({
      authorization: '[REDACTED]',
      cookie: '[REDACTED]',
      'x-api-key': '[REDACTED]',
      'proxy-authorization': '[REDACTED]',
      'x-tenant': '[REDACTED]',
    })
    expect(first?.headers.host).toEqual(expect.stringContaining('127.0.0.1'))
  })
})

describe('shapeguard({ logger: { redact } })', () => {
  it('rejects an entry that can never match when it is mounted, saying why', async () => {
    const { shapeguard } = await import('../../../src/index.js')
    const deep = Array.from({ length: 40 }, (_, i) => `k${i}`).join('.')
    expect(() => shapeguard({ logger: { redact: ['dob', deep] } })).toThrow(
      /^shapeguard: logger\.redact\[1\]: .* is deeper than the 32 levels a log record keeps, so it can never match$/,
    )
    expect(() => shapeguard({ logger: { redact: ['*.*'] } })).toThrow(
      /logger\.redact\[0\]: "\*\.\*" would redact every value/,
    )
    expect(() =>
      shapeguard({ logger: { redact: ['req.body.dob', 'items.*.serial'] } }),
    ).not.toThrow()
  })
})
