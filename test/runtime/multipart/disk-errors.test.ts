import { readdirSync, rmSync } from 'node:fs'
import request from 'supertest'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { configureLogger, errorHandler, file, handle, shapeguard } from '../../../src/index.js'
import { uploadDirectory } from '../../../src/runtime/multipart/storage.js'
import { type Express, hosts } from '../../support/e2e.js'

// A disk that fails mid-write (ENOSPC), and an upload directory a tmp cleaner removed.

const failing = vi.hoisted(() => ({ on: false }))
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>()
  const createWriteStream = ((...args: Parameters<typeof fs.createWriteStream>) => {
    const out = fs.createWriteStream(...args)
    if (!failing.on) return out
    // The first chunk is written, every later one fails as a full disk does.
    let writes = 0
    const full = (cb: (err?: Error | null) => void) =>
      cb(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }))
    const write = out._write.bind(out)
    out._write = (chunk, encoding, cb) => (writes++ === 0 ? write(chunk, encoding, cb) : full(cb))
    out._writev = (_chunks, cb) => full(cb)
    return out
  }) as typeof fs.createWriteStream
  return { ...fs, default: { ...fs, createWriteStream }, createWriteStream }
})

beforeAll(() => {
  configureLogger({ silent: true })
})

const temps = async () => readdirSync(await uploadDirectory())

describe.each(hosts)('disk uploads on %s', (_, express) => {
  const app = (express as Express)()
  app.use(shapeguard())
  app.post(
    '/disk',
    ...handle(
      {
        files: { sheet: file({ storage: 'disk', maxBytes: 50_000_000 }) },
        warnings: { missingResponseSchema: false },
      },
      (req, res) => res.ok({ data: { size: req.files.sheet.size } }),
    ),
  )
  app.use(errorHandler())
  const upload = (bytes: number) =>
    request(app).post('/disk').attach('sheet', Buffer.alloc(bytes, 0x61), 'a.csv')

  it('answers a disk error mid-write at once, leaving no temporary file', async () => {
    const before = await temps()
    failing.on = true
    try {
      const started = Date.now()
      const res = await upload(5_000_000)
      expect(res.status).toBe(500)
      expect(Date.now() - started).toBeLessThan(3000)
    } finally {
      failing.on = false
    }
    await new Promise((r) => setTimeout(r, 100))
    // No file besides those there before (another test's, being removed, may be gone).
    expect((await temps()).filter((name) => !before.includes(name))).toEqual([])
  }, 10_000)

  it('makes the upload directory again when a tmp cleaner removed it', async () => {
    expect((await upload(1000)).status).toBe(201)
    rmSync(await uploadDirectory(), { recursive: true })
    const res = await upload(1000)
    expect(res.status).toBe(201)
    expect(res.body.data.size).toBe(1000)
  })
})
