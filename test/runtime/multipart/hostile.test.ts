import { readdirSync } from 'node:fs'
import type { Server } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import multer from 'multer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configureLogger, errorHandler, file, handle, shapeguard } from '../../../src/index.js'
import { uploadDirectory } from '../../../src/runtime/multipart/storage.js'
import { captureLogger, type Express, hosts, withLogging } from '../../support/e2e.js'

// Malformed bodies, written byte by byte on a raw socket: what supertest cannot send.

beforeAll(() => {
  configureLogger({ silent: true })
})

const B = 'XBOUNDARYX'
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(24, 1),
])

const part = (headers: string, content: Buffer | string = 'v'): Buffer =>
  Buffer.concat([
    Buffer.from(`--${B}\r\n${headers}\r\n\r\n`),
    Buffer.from(content),
    Buffer.from('\r\n'),
  ])
const filePart = (name: string, filename: string, content: Buffer = png): Buffer =>
  part(
    `Content-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: image/png`,
    content,
  )
const close = Buffer.from(`--${B}--\r\n`)

interface Answer {
  status: number
  body: any
  text: string
  closed: boolean
}

/** Sends a request's head and body on a raw socket; resolves with the answer (if any). */
function send(
  port: number,
  body: Buffer,
  opts: { length?: number; end?: boolean; extraHeaders?: string; path?: string } = {},
): Promise<Answer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let text = ''
    socket.on('data', (d) => {
      text += d.toString('latin1')
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      const [head = '', payload = ''] = text.split('\r\n\r\n')
      const status = Number(head.split(' ')[1] ?? 0)
      let parsed: unknown
      try {
        parsed = JSON.parse(payload)
      } catch {
        parsed = undefined
      }
      resolve({ status, body: parsed, text, closed: true })
    })
    socket.write(
      `POST ${opts.path ?? '/upload'} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n` +
        `Content-Type: multipart/form-data; boundary=${B}\r\n` +
        `Content-Length: ${opts.length ?? body.length}\r\n${opts.extraHeaders ?? ''}\r\n`,
    )
    socket.write(body)
    if (opts.end === false) {
      // A client that stops sending: it goes away after a moment, the body unfinished.
      setTimeout(() => socket.destroy(), 100)
    }
  })
}

const fds = () => readdirSync('/proc/self/fd').length
const temps = async () => readdirSync(await uploadDirectory()).length
const settle = () => new Promise((r) => setTimeout(r, 150))

describe.each(hosts)('hostile multipart bodies on %s', (_, express) => {
  let server: Server
  let port: number
  const handled: unknown[] = []
  const log = captureLogger()
  const lines = () => log.records.map((r) => `${r.message} ${JSON.stringify(r.meta)}`).join('\n')

  beforeAll(async () => {
    const app = (express as Express)()
    app.use(shapeguard({ logger: { instance: log } }))
    const files = {
      avatar: file({ types: ['image/png'], maxBytes: 100_000, storage: 'disk' }),
      notes: file.many({ optional: true }),
    }
    app.post(
      '/upload',
      ...handle({ files, warnings: { missingResponseSchema: false } }, (req, res) => {
        handled.push(req.files.avatar.name)
        res.ok({ data: { name: req.files.avatar.name } })
      }),
    )
    // multer read the body before a route that declares files: a server mistake, said loudly.
    app.post(
      '/misuse',
      multer().any(),
      ...handle({ files, warnings: { missingResponseSchema: false } }, (_req, res) => {
        res.ok({ data: 1 })
      }),
    )
    app.use(errorHandler())
    server = app.listen(0, '127.0.0.1')
    await new Promise((r) => server.once('listening', r))
    port = (server.address() as AddressInfo).port
    await uploadDirectory()
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  async function leavesNothing(fn: () => Promise<void>): Promise<void> {
    await settle()
    const [f, t] = [fds(), await temps()]
    await fn()
    await settle()
    expect(await temps()).toBe(t)
    expect(fds()).toBeLessThanOrEqual(f)
  }

  it('accepts a well-formed body (the baseline of the cases below)', async () => {
    const res = await send(port, Buffer.concat([filePart('avatar', 'a.png'), close]))
    expect(res.status).toBe(201)
  })

  it('answers 400 for a boundary never closed, leaving no temp file', async () => {
    await leavesNothing(async () => {
      const res = await send(port, filePart('avatar', 'a.png'))
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('BAD_REQUEST')
    })
  })

  it('answers 413 for 10,000 tiny parts', async () => {
    const tiny = (i: number) => part(`Content-Disposition: form-data; name="k${i}"`, 'v')
    const body = Buffer.concat([...Array.from({ length: 10_000 }, (_, i) => tiny(i)), close])
    const res = await send(port, body)
    expect(res.status).toBe(413)
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE')
  })

  it('answers 422 for 10,000 tiny file parts', async () => {
    const tiny = filePart('notes', 'n.txt', Buffer.from('x'))
    const res = await send(
      port,
      Buffer.concat([...Array.from({ length: 10_000 }, () => tiny), close]),
    )
    expect(res.status).toBe(422)
    expect(res.body.error.details.field).toBe('files.notes')
  })

  it('answers 413 for a part header of 1 MB, whatever line holds it', async () => {
    for (const junk of [
      `X-Junk: ${'a'.repeat(1_000_000)}`,
      `Content-Disposition: form-data; name="avatar"; filename="${'a'.repeat(1_000_000)}"`,
    ]) {
      const res = await send(port, Buffer.concat([part(junk), filePart('avatar', 'a.png'), close]))
      expect(res.status).toBe(413)
      expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE')
    }
  })

  it('answers 422 for a file part without a name, and ignores none silently', async () => {
    const res = await send(
      port,
      Buffer.concat([
        part('Content-Disposition: form-data; filename="a.png"\r\nContent-Type: image/png', png),
        filePart('avatar', 'a.png'),
        close,
      ]),
    )
    expect(res.status).toBe(422)
    expect(res.body.error.details).toEqual({ field: 'files', message: 'File part has no name' })
    const text = await send(
      port,
      Buffer.concat([
        part('Content-Disposition: form-data', 'v'),
        filePart('avatar', 'a.png'),
        close,
      ]),
    )
    expect(text.status).toBe(422)
  })

  it('answers 422 for a duplicated file field', async () => {
    const res = await send(
      port,
      Buffer.concat([filePart('avatar', 'a.png'), filePart('avatar', 'b.png'), close]),
    )
    expect(res.status).toBe(422)
    expect(res.body.error.details.field).toBe('files.avatar')
  })

  it('reduces a filename with NUL or RTL characters, and drops a part whose filename holds CRLF', async () => {
    const nul = await send(port, Buffer.concat([filePart('avatar', 'a\u0000b\u202Ec.png'), close]))
    expect(nul.status).toBe(201)
    expect(nul.body.data.name).toBe('abc.png')
    // busboy skips a part whose parameters hold a bare line break: the required file is missing.
    const crlf = await send(
      port,
      Buffer.concat([
        part(
          'Content-Disposition: form-data; name="avatar"; filename="a\rb.png"\r\nContent-Type: image/png',
          png,
        ),
        close,
      ]),
    )
    expect(crlf.status).toBe(422)
  })

  it('never writes a client filename or value into a log line', async () => {
    log.records.length = 0
    await withLogging(async () => {
      await send(port, Buffer.concat([filePart('evil\u001b[31m', 'SECRET-NAME.png'), close]))
      await send(
        port,
        Buffer.concat([filePart('avatar', 'SECRET-NAME.png', Buffer.from('MZ')), close]),
      )
    })
    expect(log.records.length).toBeGreaterThan(0)
    expect(lines()).not.toContain('SECRET-NAME')
    expect(lines()).not.toContain('\u001b')
  })

  it('answers 400 for a Content-Length larger than the body, then the client goes away', async () => {
    await leavesNothing(async () => {
      const body = Buffer.concat([
        filePart('avatar', 'a.png', Buffer.concat([png, Buffer.alloc(50_000)])),
      ])
      const res = await send(port, body, { length: body.length + 10_000, end: false })
      // The client left before the answer could be read: nothing was handled, nothing is left.
      expect([0, 400]).toContain(res.status)
    })
  })

  it('reads only Content-Length bytes when it is shorter than the body: 400, never a hang', async () => {
    const body = Buffer.concat([filePart('avatar', 'a.png'), close])
    const res = await send(port, body, { length: body.length - 20 })
    expect(res.status).toBe(400)
  })

  it('leaves no descriptor or temp file when a client stops mid-file (disk storage)', async () => {
    await leavesNothing(async () => {
      const head = Buffer.from(
        `--${B}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      )
      const body = Buffer.concat([head, png, Buffer.alloc(40_000, 2)])
      await send(port, body, { length: body.length + 50_000, end: false })
    })
    expect(handled.length).toBeGreaterThan(0)
  })

  it('answers a refusal while the client is still sending, then closes: never a hang', async () => {
    // 5 MB after a refused file: past the drain bound, so the answer says Connection: close.
    const big = Buffer.concat([png, Buffer.alloc(5_000_000, 3)])
    await leavesNothing(async () => {
      const res = await send(port, Buffer.concat([filePart('avatar', 'a.png', big), close]))
      expect(res.status).toBe(413)
      expect(res.text).toMatch(/Connection: close/i)
    })
  })

  it('answers 415 for a compressed body without inflating it', async () => {
    const res = await send(port, Buffer.concat([filePart('avatar', 'a.png'), close]), {
      extraHeaders: 'Content-Encoding: gzip\r\n',
    })
    expect(res.status).toBe(415)
  })

  it('fails loudly, never hangs, when multer read the body before a route with files', async () => {
    log.records.length = 0
    await withLogging(async () => {
      const res = await send(port, Buffer.concat([filePart('avatar', 'a.png'), close]), {
        path: '/misuse',
      })
      expect(res.status).toBe(500)
    })
    expect(lines()).toMatch(/already read by another parser/)
  })
})
