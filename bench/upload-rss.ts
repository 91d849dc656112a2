import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { configureLogger, errorHandler, file, handle, shapeguard } from '../src/index.js'

// `npx tsx bench/upload-rss.ts [megabytes]` (default 1024): one upload of that size to a
// `file({ storage: 'disk' })` field, sent and received in this process, the bytes made as they are
// sent (never held). Prints the peak RSS growth over the RSS before the upload: with backpressure
// from the temporary file to the socket it stays a few tens of MB whatever the size. Not part of
// `npm test` (test/runtime/multipart/disk-rss.test.ts sends a few hundred MB).

/** Peak RSS growth, in bytes, while one upload of `bytes` goes to a disk field; and its status. */
export async function measureUpload(bytes: number): Promise<{ growth: number; status: number }> {
  configureLogger({ silent: true })
  const app = express()
  app.use(shapeguard())
  const route = {
    files: { big: file({ storage: 'disk', maxBytes: bytes + 1 }) },
    warnings: { missingResponseSchema: false },
  }
  app.post(
    '/upload',
    ...handle(route, (req, res) => {
      res.ok({ data: { size: req.files.big.size } })
    }),
  )
  app.use(errorHandler())
  const server = app.listen(0, '127.0.0.1')
  await new Promise((r) => server.once('listening', r))
  const { port } = server.address() as AddressInfo
  const boundary = 'rssboundary'
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="big"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  const chunk = Buffer.alloc(64 * 1024, 0x61)
  const before = process.memoryUsage.rss()
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 20)
  try {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/upload',
          method: 'POST',
          headers: {
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': head.length + bytes + tail.length,
          },
        },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        },
      )
      req.on('error', reject)
      req.write(head)
      let sent = 0
      const pump = () => {
        while (sent < bytes) {
          const n = Math.min(chunk.length, bytes - sent)
          sent += n
          if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
            req.once('drain', pump)
            return
          }
        }
        req.end(tail)
      }
      pump()
    })
    return { growth: peak - before, status }
  } finally {
    clearInterval(sampler)
    await new Promise((r) => server.close(r))
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const megabytes = Number(process.argv[2] ?? 1024)
  const { growth, status } = await measureUpload(megabytes * 1024 * 1024)
  console.log(
    `upload of ${megabytes} MB to a disk field: status ${status}, peak RSS growth ${(growth / 1024 / 1024).toFixed(1)} MB`,
  )
}
