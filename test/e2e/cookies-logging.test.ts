import signature from 'cookie-signature'
import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { errorHandler, handle, logger, shapeguard } from '../../src/index.js'
import { resetLogger } from '../../src/runtime/logging/logger.js'
import { requestLogger } from '../../src/runtime/logging/request-logger.js'
import { type Express, hosts } from '../support/e2e.js'
import { BACKENDS, capture, settle } from '../support/log-capture.js'

// A cookie value never reaches a log line: neither the request's Cookie header nor the response's
// Set-Cookie, with every option that logs more turned on, on every backend, pretty or JSON.

const SECRET = 'cookie-secret'
const SENT = ['themevalue7f', 'sessionvalue3c', 'plainsent9d', 'signedsent5e']

afterEach(() => {
  resetLogger()
})

function loggedApp(express: Express, backend: (typeof BACKENDS)[number], pretty: boolean) {
  const out = capture()
  const server = express()
  server.use(express.json())
  server.use(
    requestLogger(
      {
        pretty,
        logAllRequests: true,
        logIncoming: true,
        logRequestBody: true,
        logResponseBody: true,
        logClientIp: true,
      },
      true,
      { stream: out, backend },
    ),
  )
  server.use(shapeguard({ debug: true, cookies: { secrets: [SECRET] } }))
  server.post(
    '/prefs',
    ...handle(
      {
        body: z.object({ note: z.string() }),
        cookies: z.object({ theme: z.string() }),
        signedCookies: z.object({ uid: z.string() }),
      },
      (req, res) => {
        req.log.info(
          { headers: req.headers, cookies: req.cookies, signedCookies: req.signedCookies },
          'seen',
        )
        res.cookie('plain', 'plainsent9d')
        res.cookie('token', 'signedsent5e', { signed: true })
        logger.info({ headers: res.getHeaders() }, 'answering')
        res.ok({ data: { note: req.body.note } })
      },
    ),
  )
  server.use(errorHandler())
  return { server, out }
}

describe.each(hosts)('%s', (_, express) => {
  describe.each(BACKENDS)('through %s', (backend) => {
    it.each([false, true])('logs no cookie value (pretty %s)', async (pretty) => {
      const { server, out } = loggedApp(express, backend, pretty)
      const session = encodeURIComponent(`s:${signature.sign('sessionvalue3c', SECRET)}`)
      const res = await request(server)
        .post('/prefs')
        .set('Cookie', `theme=themevalue7f; uid=${session}`)
        .send({ note: 'hello' })
      expect(res.status).toBe(201)
      expect(String(res.headers['set-cookie'])).toContain('plainsent9d')
      await settle()
      const text = out.chunks.join('')
      // The lines were written, headers and bodies included, redacted.
      expect(text).toContain('hello')
      expect(text).toContain('[REDACTED]')
      for (const value of SENT) expect(text).not.toContain(value)
    })
  })
})
