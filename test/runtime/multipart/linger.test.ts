import type { Server } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configureLogger, errorHandler, file, handle, shapeguard } from '../../../src/index.js'
import { type Express, hosts } from '../../support/e2e.js'

// A client that keeps sending a large body after its refusal still reads the answer: the socket
// is half-closed and its input dropped for a while, not destroyed with bytes unread (a reset).

beforeAll(() => {
  configureLogger({ silent: true })
})

const B = 'XBOUNDARYX'
const MB = 1024 * 1024

/**
 * Writes a 20 MB file part as fast as the socket takes it; resolves with what was read and the
 * socket's error, if any: a client such as fetch gives up on a reset, whatever it had read.
 */
function sendLarge(port: number): Promise<{ text: string; error: string | undefined }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    const head = `--${B}\r\nContent-Disposition: form-data; name="doc"; filename="a.bin"\r\n\r\n`
    const total = head.length + 20 * MB
    let text = ''
    let error: string | undefined
    socket.on('data', (d) => {
      text += d.toString('latin1')
    })
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error = err.code
    })
    socket.on('close', () => resolve({ text, error }))
    socket.write(
      `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${B}\r\n` +
        `Content-Length: ${total}\r\n\r\n${head}`,
    )
    const chunk = Buffer.alloc(64 * 1024, 1)
    let sent = 0
    const pump = () => {
      while (sent < 20 * MB && !socket.destroyed) {
        sent += chunk.length
        if (!socket.write(chunk)) return void socket.once('drain', pump)
      }
    }
    pump()
  })
}

describe.each(hosts)('a refused large body on %s', (_, express) => {
  let server: Server
  let port: number

  beforeAll(async () => {
    const app = (express as Express)()
    app.use(shapeguard())
    app.post(
      '/upload',
      ...handle(
        { files: { doc: file({ maxBytes: 1000 }) }, warnings: { missingResponseSchema: false } },
        (_req, res) => res.ok({ data: 1 }),
      ),
    )
    app.use(errorHandler())
    server = app.listen(0, '127.0.0.1')
    await new Promise((r) => server.once('listening', r))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  it('lets a client still writing 20 MB to a 1 KB field read its 413', async () => {
    for (let i = 0; i < 3; i++) {
      const { text, error } = await sendLarge(port)
      expect(error).toBeUndefined()
      expect(text).toMatch(/^HTTP\/1\.1 413 /)
      expect(text).toMatch(/\r\nconnection: close\r\n/i)
      expect(text).toContain('PAYLOAD_TOO_LARGE')
    }
  }, 30_000)
})
