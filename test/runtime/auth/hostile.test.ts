import { createServer, type Server } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type AuthConfig,
  configureLogger,
  errorHandler,
  file,
  handle,
  shapeguard,
} from '../../../src/index.js'
import { captureLogger, type Express, hosts } from '../../support/e2e.js'

// The hostile list of issue 45, on a raw socket where supertest would tidy the request up: each is
// a 401 or a 400 in the error envelope, never a 500, and no verifier sees what it cannot check.

beforeAll(() => {
  configureLogger({ silent: true })
})

interface Answer {
  status: number
  headers: Record<string, string>
  body: any
}

/** Writes `head` (and `body`) on a socket; resolves with the first answer, whole, then hangs up. */
function raw(port: number, head: string, body = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let text = ''
    const done = () => {
      const end = text.indexOf('\r\n\r\n')
      if (end === -1) return false
      const lines = text.slice(0, end).split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':')
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
      }
      const length = Number(headers['content-length'] ?? 0)
      const payload = text.slice(end + 4)
      if (Buffer.byteLength(payload) < length) return false
      let parsed: unknown
      try {
        parsed = JSON.parse(payload)
      } catch {
        parsed = payload
      }
      resolve({ status: Number(lines[0]!.split(' ')[1]), headers, body: parsed })
      socket.destroy()
      return true
    }
    socket.on('data', (d) => {
      text += d.toString('latin1')
      done()
    })
    socket.on('error', reject)
    socket.on('close', () => {
      if (!done()) reject(new Error(`closed without an answer: ${JSON.stringify(text)}`))
    })
    socket.write(head)
    if (body !== '') socket.write(body)
  })
}

const get = (path: string, headers: string) =>
  `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${headers}\r\n`

const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64')

describe.each(hosts)('hostile credentials on %s', (_, express) => {
  let server: Server
  let port: number
  const calls: string[] = []
  const log = captureLogger()

  beforeAll(async () => {
    const auth = {
      bearer: (token: string) => {
        calls.push('bearer')
        return token === 'good' ? 'user' : undefined
      },
      basic: (user: string, password: string) => {
        calls.push('basic')
        return user === 'ada' && password === 'a:b:c' ? user : undefined
      },
      headerKey: {
        in: 'header',
        name: 'x-api-key',
        verify: (key: string) => {
          calls.push('headerKey')
          return key === 'k' ? 'header' : undefined
        },
      },
      queryKey: {
        in: 'query',
        name: 'api_key',
        verify: (key: string) => {
          calls.push('queryKey')
          return key === 'k' ? 'query' : undefined
        },
      },
    } satisfies AuthConfig
    const app = (express as Express)()
    app.use(shapeguard({ auth, debug: false, logger: { instance: log } }))
    const route = (security: string[]) =>
      handle({ security, warnings: { missingResponseSchema: false } } as never, (req, res) =>
        res.ok({ data: (req as { auth?: unknown }).auth ?? null }),
      )
    app.get('/bearer', ...route(['bearer']))
    app.get('/basic', ...route(['basic']))
    app.get('/header-key', ...route(['headerKey']))
    app.get('/query-key', ...route(['queryKey']))
    app.get('/public', ...route([]))
    app.post(
      '/upload',
      ...handle(
        {
          security: ['bearer'],
          files: { doc: file() },
          warnings: { missingResponseSchema: false },
        },
        (_req, res) => {
          calls.push('upload handler')
          res.ok({ data: null })
        },
      ),
    )
    app.use(errorHandler())
    // Node's default header limit (16 KB) would answer a 16 KB header itself: this one lets it through.
    server = createServer({ maxHeaderSize: 65_536 }, app)
    server.listen(0, '127.0.0.1')
    await new Promise((r) => server.once('listening', r))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  async function expectRefused(
    path: string,
    headers: string,
    status = 401,
    code = 'UNAUTHORIZED',
  ): Promise<Answer> {
    calls.length = 0
    const res = await raw(port, get(path, headers))
    expect(res.status).toBe(status)
    expect(res.body).toMatchObject({ success: false, error: { code } })
    expect(calls).toEqual([])
    return res
  }

  it('refuses an Authorization header of 16 KB before any verifier', async () => {
    const token = 'a'.repeat(16_384)
    await expectRefused('/bearer', `Authorization: Bearer ${token}\r\n`)
    await expectRefused('/basic', `Authorization: Basic ${b64(`ada:${token}`)}\r\n`)
    await expectRefused('/header-key', `x-api-key: ${token}\r\n`)
    expect(JSON.stringify(log.records)).not.toContain(token)
  })

  it('a CR, LF, CRLF, folded line or NUL inside Authorization: Node itself answers 400, no verifier runs', async () => {
    calls.length = 0
    for (const value of ['go\rod', 'go\nod', 'go\r\nod', 'go\r\n od', 'go\u0000od']) {
      const res = await raw(port, get('/bearer', `Authorization: Bearer ${value}\r\n`))
      expect(res.status).toBe(400)
    }
    expect(calls).toEqual([])
  })

  it('answers 400 to two Authorization headers where a scheme reads it, not on a public or API-key route', async () => {
    const twice = 'Authorization: Bearer good\r\nauthorization: Bearer other\r\n'
    const res = await expectRefused('/bearer', twice, 400, 'BAD_REQUEST')
    expect(res.body.error.message).toBe('Authorization must be sent once')
    await expectRefused('/basic', twice, 400, 'BAD_REQUEST')
    expect((await raw(port, get('/public', twice))).status).toBe(200)
    const keyed = await raw(port, get('/header-key', `${twice}X-Api-Key: good-key\r\n`))
    expect(keyed.status).not.toBe(400)
  })

  it.each(['bearer good', 'BEARER good', 'BeArEr good', 'Bearer    good'])(
    'admits the scheme in any case: %s',
    async (value) => {
      const res = await raw(port, get('/bearer', `Authorization: ${value}\r\n`))
      expect(res.status).toBe(200)
      expect(res.body.data).toBe('user')
    },
  )

  it('Bearer with no token, or spaces only, is no credential: 401 without invalid_token', async () => {
    for (const value of ['Bearer', 'Bearer    ', 'Bearer\t']) {
      const res = await expectRefused('/bearer', `Authorization: ${value}\r\n`)
      expect(res.headers['www-authenticate']).toBe('Bearer realm="api"')
    }
    const spaced = await expectRefused('/bearer', 'Authorization: Bearer a b\r\n')
    expect(spaced.headers['www-authenticate']).toBe('Bearer realm="api", error="invalid_token"')
  })

  it('basic: refuses what is not base64, has no ":" or is not UTF-8; a ":" in the password is kept', async () => {
    for (const value of [
      'Basic !!!!',
      'Basic YWRh OmE=',
      `Basic ${b64('ada:a:b:c').slice(0, -1)}`,
      `Basic ${b64('ada')}`,
      `Basic ${b64(Buffer.from([0x61, 0x3a, 0xff, 0xfe]))}`,
      `Basic ${b64('ada:a\u0000b')}`,
    ]) {
      const res = await expectRefused('/basic', `Authorization: ${value}\r\n`)
      expect(res.headers['www-authenticate']).toBe('Basic realm="api", charset="UTF-8"')
    }
    const ok = await raw(port, get('/basic', `Authorization: basic ${b64('ada:a:b:c')}\r\n`))
    expect(ok.body.data).toBe('ada')
  })

  it('reads an API key from its declared place only', async () => {
    const status = async (path: string, headers: string) =>
      (await raw(port, get(path, headers))).status
    expect(await status('/header-key?x-api-key=k', 'x-api-key: wrong\r\n')).toBe(401)
    expect(await status('/header-key?x-api-key=wrong', 'x-api-key: k\r\n')).toBe(200)
    expect(await status('/query-key?api_key=wrong', 'api_key: k\r\n')).toBe(401)
    expect(await status('/query-key?api_key=k', 'api_key: wrong\r\n')).toBe(200)
  })

  it('refuses a repeated query API key (400, the query guard) or a nested one, never passing it on', async () => {
    await expectRefused('/query-key?api_key=k&api_key=k', '', 400, 'PARAM_POLLUTION')
    await expectRefused('/query-key?api_key[a]=k', '')
  })

  it('refuses an unauthenticated upload before its body is read', async () => {
    calls.length = 0
    const res = await raw(
      port,
      'POST /upload HTTP/1.1\r\nHost: x\r\nConnection: close\r\n' +
        'Content-Type: multipart/form-data; boundary=B\r\nContent-Length: 10000000\r\n\r\n',
      '--B\r\nContent-Disposition: form-data; name="doc"; filename="a.txt"\r\n\r\nstart',
    )
    // The body is 10 MB and never finished: only an answer before reading it arrives.
    expect(res.status).toBe(401)
    expect(res.body.error.code).toBe('UNAUTHORIZED')
    expect(calls).toEqual([])
  })
})
