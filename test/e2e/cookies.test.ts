import cookieParser from 'cookie-parser'
import signature from 'cookie-signature'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import {
  configureLogger,
  errorHandler,
  handle,
  type ShapeguardConfig,
  shapeguard,
} from '../../src/index.js'
import { captureLogger, type Express, hosts, withLogging } from '../support/e2e.js'

// Cookies through a route's `cookies` and `signedCookies` schemas, on Express 4 and 5:
// parsed from the Cookie header, signatures as cookie-parser makes them, rotation, and every
// hostile header a 4xx in the app's error format that echoes nothing.

beforeAll(() => {
  configureLogger({ silent: true })
})

const CURRENT = 'current-secret'
const OLD = 'old-secret'
const signed = (value: string, secret = CURRENT) => `s:${signature.sign(value, secret)}`
const cookieOf = (value: string) => encodeURIComponent(value)

function app(express: Express, config: ShapeguardConfig = {}, before?: (a: any) => void) {
  const server = express()
  before?.(server)
  server.use(shapeguard({ cookies: { secrets: [CURRENT, OLD] }, ...config }))
  server.get(
    '/prefs',
    ...handle({ cookies: z.object({ theme: z.enum(['dark', 'light']) }) }, (req, res) =>
      res.ok({ data: { cookies: { ...req.cookies } } }),
    ),
  )
  server.get(
    '/all',
    ...handle({ cookies: z.record(z.string(), z.string()) }, (req, res) =>
      res.ok({ data: { names: Object.keys(req.cookies) } }),
    ),
  )
  server.get(
    '/me',
    ...handle(
      {
        signedCookies: z.object({ session: z.string().regex(/^[a-z0-9]+$/) }),
        cookies: z.object({ theme: z.string().optional() }),
      },
      (req, res) =>
        res.ok({ data: { session: req.signedCookies.session, cookies: { ...req.cookies } } }),
    ),
  )
  server.get(
    '/jar',
    ...handle({ signedCookies: z.record(z.string(), z.string().max(5)) }, (req, res) =>
      res.ok({ data: { names: Object.keys(req.signedCookies) } }),
    ),
  )
  server.get('/login', (_req, res) => {
    res.cookie('session', 'abc123', { signed: true })
    res.ok({ data: null })
  })
  server.use(errorHandler())
  return server
}

const get = (server: ReturnType<typeof app>, path: string, cookie: string) =>
  request(server).get(path).set('Cookie', cookie)

describe.each(hosts)('%s', (_, express) => {
  describe('cookies', () => {
    it('validates and strips the parsed cookies; the result replaces req.cookies', async () => {
      const res = await get(app(express), '/prefs', 'theme=dark; tracking=abc')
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({ cookies: { theme: 'dark' } })
    })

    it('answers a value the schema refuses with a 422 naming cookies.<name>, not the value', async () => {
      const res = await get(app(express), '/prefs', 'theme=chartreuse-9f2')
      expect(res.status).toBe(422)
      expect(res.body.error.code).toBe('VALIDATION_ERROR')
      expect(res.body.error.details).toMatchObject({ field: 'cookies.theme' })
      expect(res.text).not.toContain('chartreuse-9f2')
    })

    it('answers a missing cookie with a 422 naming it', async () => {
      const res = await request(app(express)).get('/prefs')
      expect(res.status).toBe(422)
      expect(res.body.error.details).toMatchObject({ field: 'cookies.theme' })
    })

    it('reads the header, whatever cookie-parser left on req.cookies', async () => {
      const server = app(express, {}, (a) =>
        a.use(cookieParser(), (req: any, _res: unknown, next: () => void) => {
          req.cookies.theme = 'light'
          next()
        }),
      )
      const res = await get(server, '/prefs', 'theme=dark')
      expect(res.body.data.cookies).toEqual({ theme: 'dark' })
    })

    it('keeps signed cookies out of req.cookies, as cookie-parser does', async () => {
      const res = await get(app(express), '/all', `a=1; s=${cookieOf(signed('x'))}; f=s%3Aforged`)
      expect(res.status).toBe(200)
      expect(res.body.data.names).toEqual(['a'])
    })
  })

  describe('signed cookies', () => {
    it('verifies a cookie signed with the current secret and validates it', async () => {
      const res = await get(app(express), '/me', `session=${cookieOf(signed('abc123'))}; theme=x`)
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({ session: 'abc123', cookies: { theme: 'x' } })
    })

    it('verifies a cookie signed with a previous secret (rotation)', async () => {
      const res = await get(app(express), '/me', `session=${cookieOf(signed('abc123', OLD))}`)
      expect(res.status).toBe(200)
      expect(res.body.data.session).toBe('abc123')
    })

    it.each([
      ['a forged signature', `s:abc123.${'A'.repeat(43)}`, 'Invalid signature'],
      ['a signature of another secret', signed('abc123', 'not-ours'), 'Invalid signature'],
      ['s: but no dot', 's:abc123', 'Invalid signature'],
      ['an empty signature', 's:abc123.', 'Invalid signature'],
      ['no signature', 'abc123', 'Cookie is not signed'],
    ])('answers %s with a 422 naming signedCookies.session', async (_, value, message) => {
      const res = await get(app(express), '/me', `session=${cookieOf(value)}`)
      expect(res.status).toBe(422)
      expect(res.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { field: 'signedCookies.session', message },
      })
      expect(res.text).not.toContain('abc123')
    })

    it('answers a verified value the schema refuses with a 422, without the value', async () => {
      const res = await get(app(express), '/me', `session=${cookieOf(signed('NOT-lower'))}`)
      expect(res.status).toBe(422)
      expect(res.body.error.details).toMatchObject({ field: 'signedCookies.session' })
      expect(res.text).not.toContain('NOT-lower')
    })

    it('ignores a bad signature on a cookie the schema does not declare', async () => {
      const cookie = `session=${cookieOf(signed('abc123'))}; other=s%3Ax.y`
      expect((await get(app(express), '/me', cookie)).status).toBe(200)
    })

    it.each([
      ['a bad signature', (name: string) => `${name}=s%3AVALUEMARK.forged`],
      [
        'a verified value the schema refuses',
        (name: string) => `${name}=${cookieOf(signed('VALUEMARK'))}`,
      ],
    ])("names a record schema's cookie cleaned and clipped after %s", async (_, pair) => {
      // A C1 control (CSI), which a header may carry, written as text; 100 characters clipped.
      const name = `EVIL\x9b<b>${'X'.repeat(100)}`
      const res = await get(app(express), '/jar', pair(name))
      expect(res.status).toBe(422)
      const shown = `EVIL\\u009b<b>${'X'.repeat(100)}`.slice(0, 64)
      expect(res.body.error.details.field).toBe(`signedCookies.${shown}…`)
      expect(res.text).not.toContain('VALUEMARK')
      expect(res.text).not.toContain('\x9b')
      expect(res.text).not.toContain('X'.repeat(60))
    })

    it('answers in problem details when the app says so, with the field and no value', async () => {
      const server = app(express, { errors: { format: 'problem+json' } })
      const res = await get(server, '/me', 'session=s%3Aabc123.forged')
      expect(res.status).toBe(422)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(res.body.errors).toEqual([
        { field: 'signedCookies.session', message: 'Invalid signature' },
      ])
      expect(res.text).not.toContain('abc123')
    })

    it('fails loudly, logged, on an app without secrets: never a silent pass', async () => {
      const sink = captureLogger()
      const server = app(express, { cookies: {}, debug: false, logger: { instance: sink } })
      const res = await withLogging(() =>
        get(server, '/me', `session=${cookieOf(signed('abc123'))}`),
      )
      expect(res.status).toBe(500)
      expect(res.body.error.code).toBe('INTERNAL_ERROR')
      expect(sink.records).toMatchObject([
        {
          level: 'error',
          meta: {
            status: 500,
            message: expect.stringMatching(/^shapeguard: signedCookies: needs the secrets/),
          },
        },
      ])
    })
  })

  describe('compatibility with cookie-parser', () => {
    it('verifies what cookie-signature signs and cookie-parser reads', async () => {
      const value = signed('abc123', OLD)
      expect(cookieParser.signedCookie(value, [CURRENT, OLD])).toBe('abc123')
      const res = await get(app(express), '/me', `session=${cookieOf(value)}`)
      expect(res.body.data.session).toBe('abc123')
    })

    it('signs res.cookie(…, { signed: true }) with req.secret, which cookie-parser reads', async () => {
      const login = await request(app(express)).get('/login')
      const setCookie = String(login.headers['set-cookie'])
      const pair = setCookie.split(';')[0]!
      expect(pair.startsWith('session=s%3Aabc123.')).toBe(true)

      const reader = express()
      reader.use(cookieParser([CURRENT]))
      reader.get('/', (req, res) => {
        res.json({ signed: req.signedCookies })
      })
      expect((await request(reader).get('/').set('Cookie', pair)).body).toEqual({
        signed: { session: 'abc123' },
      })
      expect((await get(app(express), '/me', pair)).body.data.session).toBe('abc123')
    })

    it('leaves a req.secret another middleware set', async () => {
      const server = app(express, {}, (a) => a.use(cookieParser('theirs')))
      const pair = String((await request(server).get('/login')).headers['set-cookie']).split(
        ';',
      )[0]!
      expect(cookieParser.signedCookie(decodeURIComponent(pair.slice(8)), 'theirs')).toBe('abc123')
    })
  })

  describe('hostile Cookie headers: a 4xx or a 200, never a 500, nothing echoed', () => {
    it('takes a header of 8 KB', async () => {
      const long = `theme=dark; pad=${'x'.repeat(8 * 1024)}`
      expect((await get(app(express), '/prefs', long)).status).toBe(200)
      const res = await get(app(express), '/prefs', `theme=${'q'.repeat(8 * 1024)}`)
      expect(res.status).toBe(422)
      expect(res.text).not.toContain('qqqq')
    })

    it('takes 1,000 cookies and keeps only the declared one', async () => {
      const many = Array.from({ length: 1000 }, (_, i) => `c${i}=v${i}`).join('; ')
      const res = await get(app(express), '/prefs', `${many}; theme=light`)
      expect(res.status).toBe(200)
      expect(res.body.data.cookies).toEqual({ theme: 'light' })
    })

    it('takes 700 signed cookies (a full header) on a signed route', async () => {
      const many = Array.from({ length: 700 }, (_, i) => `c${i}=s%3Av.s`).join('; ')
      const res = await get(app(express), '/me', `${many}; session=${cookieOf(signed('ok1'))}`)
      expect(res.status).toBe(200)
    })

    it.each(['/prefs', '/all'])(
      'takes __proto__, constructor and prototype as names (%s)',
      async (path) => {
        const cookie = '__proto__=polluted; constructor=x; prototype=y; theme=dark'
        const res = await get(app(express), path, cookie)
        expect(res.status).toBeLessThan(500)
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
        expect(Object.prototype).not.toHaveProperty('theme')
        if (path === '/prefs') expect(res.body.data.cookies).toEqual({ theme: 'dark' })
      },
    )

    it('keeps the first of duplicated names, as Express users expect', async () => {
      const res = await get(app(express), '/prefs', 'theme=dark; theme=evil')
      expect(res.body.data.cookies).toEqual({ theme: 'dark' })
    })

    it('skips malformed pairs', async () => {
      const res = await get(app(express), '/prefs', 'novalue; =x; ==; ;; a=b=c; theme=light')
      expect(res.status).toBe(200)
      expect(res.body.data.cookies).toEqual({ theme: 'light' })
    })

    it('takes percent-encoding that fails to decode as the raw value, refused by the schema', async () => {
      const res = await get(app(express), '/prefs', 'theme=%E0%A4%A')
      expect(res.status).toBe(422)
      expect(res.text).not.toContain('%E0')
      const signedBad = await get(app(express), '/me', 'session=s%3A%E0%A4%A.x')
      expect(signedBad.status).toBe(422)
    })
  })
})
