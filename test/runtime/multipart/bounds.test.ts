import type { Server } from 'node:http'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configureLogger, errorHandler, file, handle, shapeguard } from '../../../src/index.js'
import { TEXT_BYTES } from '../../../src/runtime/multipart/limits.js'
import { type Express, hosts } from '../../support/e2e.js'

// The memory a body may take: each text field checked as it arrives, the text fields together
// bounded, and the whole body never more than its route allows.

beforeAll(() => {
  configureLogger({ silent: true })
})

const B = 'XBOUNDARYX'
const field = (name: string, value: string) =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`

describe.each(hosts)('multipart bounds on %s', (_, express) => {
  let server: Server
  let port: number
  const app = (express as Express)()
  app.use(shapeguard({ validation: { limits: { maxStringLength: 10, maxArrayLength: 5 } } }))
  app.post(
    '/small',
    ...handle(
      {
        files: { f: file({ optional: true, maxBytes: 1000 }) },
        warnings: { missingResponseSchema: false },
      },
      (_req, res) => res.ok({ data: 1 }),
    ),
  )
  const roomy = (express as Express)()
  roomy.use(shapeguard())
  roomy.post(
    '/roomy',
    ...handle(
      { files: { f: file({ optional: true }) }, warnings: { missingResponseSchema: false } },
      (_req, res) => res.ok({ data: 1 }),
    ),
  )
  roomy.use(errorHandler())
  app.use(errorHandler())

  beforeAll(async () => {
    server = app.listen(0, '127.0.0.1')
    await new Promise((r) => server.once('listening', r))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  it('refuses a text field past maxStringLength as it arrives, not at the end of the body', async () => {
    // The body never ends: only a refusal on the field itself answers.
    const status = await new Promise<number>((resolve) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/small',
          method: 'POST',
          headers: {
            'content-type': `multipart/form-data; boundary=${B}`,
            'content-length': 100_000,
          },
        },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
          req.destroy()
        },
      )
      req.on('error', () => {})
      req.write(field('a', 'x'.repeat(20)) + field('b', 'y'))
    })
    expect(status).toBe(400)
  })

  it(`refuses text fields over ${TEXT_BYTES} bytes together with 413`, async () => {
    const value = 'x'.repeat(9000)
    const body =
      Array.from({ length: 120 }, (_, i) => field(`k${i}`, value)).join('') + `--${B}--\r\n`
    const res = await request(roomy)
      .post('/roomy')
      .set('Content-Type', `multipart/form-data; boundary=${B}`)
      .send(body)
    expect(res.status).toBe(413)
    expect(res.body.error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: { limit: TEXT_BYTES },
    })
  })

  it('refuses a body larger than all its route allows with 413, whatever its parts', async () => {
    // A 2 MB preamble: no part, no field, still more bytes than the route's file and text allow.
    const body = `${'p'.repeat(2_000_000)}\r\n${field('a', 'x')}--${B}--\r\n`
    const res = await request(app)
      .post('/small')
      .set('Content-Type', `multipart/form-data; boundary=${B}`)
      .send(body)
    expect(res.status).toBe(413)
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE')
    const fine = await request(app)
      .post('/small')
      .field('a', 'x')
      .attach('f', Buffer.alloc(1000), 'a.bin')
    expect(fine.status).toBe(201)
  })

  it('meters part headers by the boundary busboy reads, and no epilogue after the close', async () => {
    const pad = `--a\r\nContent-Disposition: form-data; name="f"; filename="x.bin"\r\nX-Pad: ${'p'.repeat(100_000)}\r\n\r\nv\r\n--a--\r\n`
    const padded = await request(roomy)
      .post('/roomy')
      .set('Content-Type', 'multipart/form-data; xboundary=zz; boundary=a')
      .send(pad)
    expect(padded.status).toBe(413)
    expect(padded.body.error.details).toMatchObject({ limit: 16 * 1024 })
    const epilogue = await request(roomy)
      .post('/roomy')
      .set('Content-Type', `multipart/form-data; boundary=${B}`)
      .send(`${field('a', 'x')}--${B}--\r\n${'E'.repeat(20_000)}`)
    expect(epilogue.status).toBe(201)
  })
})
