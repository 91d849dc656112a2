import { get as httpGet } from 'node:http'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  configureLogger,
  type ErrorFormat,
  errorHandler,
  notFoundHandler,
  shapeguard,
} from '../../src/index.js'
import { captureLogger, type Express, hosts } from '../support/e2e.js'

// The mistakes an app can make with the error tools (a status res.fail cannot send, the factories
// mounted without their call) and a 404 asked for a path that is not this site's: each answered
// in the app's error format, on Express 4 and 5.

beforeAll(() => {
  configureLogger({ silent: true })
})

const formats: ErrorFormat[] = ['envelope', 'problem+json']

/** GET `path` exactly as written (supertest would resolve `//host/…` as a URL). */
function rawGet(app: ReturnType<Express>, path: string): Promise<{ status: number; body: any }> {
  const server = app.listen(0, '127.0.0.1')
  return new Promise((resolve, reject) => {
    server.once('listening', () => {
      const { port } = server.address() as AddressInfo
      httpGet({ host: '127.0.0.1', port, path }, (res) => {
        let text = ''
        res.on('data', (chunk) => {
          text += chunk
        })
        res.on('end', () => {
          server.close()
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) })
        })
      }).on('error', (err) => {
        server.close()
        reject(err)
      })
    })
  })
}

/** The code and message of an error answer in either format. */
function said(body: any): { code: string; message: string } {
  return body.error === undefined
    ? { code: body.code, message: body.detail }
    : { code: body.error.code, message: body.error.message }
}

describe.each(hosts)('res.fail() with a status it cannot send on %s', (_, express) => {
  describe.each(formats)('%s', (format) => {
    function app(debug: boolean) {
      const app = express()
      app.use(shapeguard({ debug, errors: { format }, logger: { instance: captureLogger() } }))
      app.get('/fail/:status', (req, res) => {
        const raw = req.params.status
        res.fail({
          code: 'NOPE',
          message: 'No',
          status: raw === 'text' ? '404' : Number(raw),
        } as never)
      })
      app.use(errorHandler({ logger: captureLogger() }))
      return app
    }

    it.each([200, 204, 302, 304, 399, 600])(
      'refuses %s: a 500 naming the fix, never that status',
      async (status) => {
        const res = await request(app(true)).get(`/fail/${status}`)
        expect(res.status).toBe(500)
        expect(said(res.body)).toEqual({
          code: 'INTERNAL_ERROR',
          message:
            'shapeguard: res.fail(): status must be a number from 400 to 599, e.g. 404; answer other statuses with res.ok(), res.status() or res.redirect()',
        })
      },
    )

    it("refuses the string '404', saying to pass a number", async () => {
      const res = await request(app(true)).get('/fail/text')
      expect(res.status).toBe(500)
      expect(said(res.body).message).toContain('(a number, not a string), e.g. 404')
    })

    it('hides the message in production, as any programmer error', async () => {
      const res = await request(app(false)).get('/fail/200')
      expect(res.status).toBe(500)
      expect(said(res.body)).toEqual({ code: 'INTERNAL_ERROR', message: 'Something went wrong' })
    })

    it.each([400, 404, 451, 503, 599])('sends %s', async (status) => {
      const res = await request(app(true)).get(`/fail/${status}`)
      expect(res.status).toBe(status)
      expect(said(res.body)).toEqual({ code: 'NOPE', message: 'No' })
    })
  })
})

describe.each(hosts)('the 404 message on %s', (_, express) => {
  describe.each(formats)('%s', (format) => {
    function app() {
      const app = express()
      app.use(shapeguard({ errors: { format }, logger: { instance: captureLogger() } }))
      app.use(notFoundHandler())
      app.use(errorHandler({ logger: captureLogger() }))
      return app
    }

    it.each([
      ['//evil.example/login', 'Cannot GET this path'],
      ['//evil.example', 'Cannot GET this path'],
      ['http://evil.example/x', 'Cannot GET this path'],
      ['/a"<b>/c?token=secret', 'Cannot GET /a%22%3Cb%3E/c'],
      ['/nothing/here?x=1', 'Cannot GET /nothing/here'],
      ['/caf%C3%A9', 'Cannot GET /caf%C3%A9'],
    ])('%s: %s', async (path, message) => {
      const res = await rawGet(app(), path)
      expect(res.status).toBe(404)
      expect(said(res.body)).toEqual({ code: 'NOT_FOUND', message })
      expect(JSON.stringify(res.body)).not.toContain('evil.example')
      expect(JSON.stringify(res.body)).not.toContain('secret')
    })
  })
})

describe.each(hosts)('the factories mounted without their call on %s', (_, express) => {
  describe.each(formats)('%s', (format) => {
    function app() {
      const app = express()
      app.use(shapeguard({ errors: { format }, logger: { instance: captureLogger() } }))
      app.get('/throw', () => {
        throw new Error('broken')
      })
      app.get('/ok', (_req, res) => res.ok({ data: 1 }))
      app.use(notFoundHandler as never)
      app.use(errorHandler as never)
      return app
    }

    it('app.use(errorHandler) answers a thrown error in the error format', async () => {
      const res = await request(app()).get('/throw')
      expect(res.status).toBe(500)
      expect(res.headers['content-type']).toMatch(
        format === 'envelope' ? /^application\/json/ : /^application\/problem\+json/,
      )
      expect(said(res.body)).toEqual({ code: 'INTERNAL_ERROR', message: 'broken' })
    })

    it('app.use(notFoundHandler) answers 404 NOT_FOUND', async () => {
      const res = await request(app()).get('/nowhere')
      expect(res.status).toBe(404)
      expect(said(res.body)).toEqual({ code: 'NOT_FOUND', message: 'Cannot GET /nowhere' })
    })

    it('a route that answers is left alone', async () => {
      const res = await request(app()).get('/ok')
      expect(res.status).toBe(200)
      expect(res.body.data).toBe(1)
    })
  })
})
