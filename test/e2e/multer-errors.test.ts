import multer from 'multer'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { configureLogger, errorHandler, shapeguard } from '../../src/index.js'
import { captureLogger, type Express, hosts, rawPost } from '../support/e2e.js'

// multer (and busboy under it) marks no HTTP status on its errors: without shapeguard they reach
// Express as 500s with a stack in development. On a route that uses multer, each is a client
// mistake answered as a 4xx in the envelope, in development mode too, never an error-level line.
beforeAll(() => {
  configureLogger({ silent: true })
})

function multerApp(express: Express, format?: 'problem+json') {
  const logger = captureLogger()
  const app = express()
  app.use(shapeguard({ debug: true, ...(format ? { errors: { format } } : {}) }))
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: 16, files: 2, fields: 3, fieldSize: 32 },
  })
  app.post('/avatar', upload.single('avatar'), (req, res) => {
    res.json({ size: req.file?.size ?? 0 })
  })
  app.post('/photos', upload.array('photos', 2), (req, res) => {
    res.json({ count: (req.files as unknown[]).length })
  })
  app.use(errorHandler({ logger }))
  return { app, logger }
}

const quiet = (logger: ReturnType<typeof captureLogger>) => {
  expect(logger.records.filter((r) => r.level === 'error')).toEqual([])
  expect(logger.records.some((r) => r.meta.stack !== undefined)).toBe(false)
}

describe.each(hosts)('multer errors on %s', (_, express) => {
  it('a file within the limit passes untouched', async () => {
    const { app } = multerApp(express)
    const res = await request(app).post('/avatar').attach('avatar', Buffer.from('tiny'), 'a.txt')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ size: 4 })
  })

  it('"File too large" is 413 PAYLOAD_TOO_LARGE naming the field, without a stack', async () => {
    const { app, logger } = multerApp(express)
    const res = await request(app).post('/avatar').attach('avatar', Buffer.alloc(64, 1), 'big.bin')
    expect(res.status).toBe(413)
    expect(res.body.error.stack).toBeUndefined()
    expect(res.body).toMatchObject({
      success: false,
      message: 'File is too large',
      error: { code: 'PAYLOAD_TOO_LARGE', details: { field: 'avatar' } },
    })
    quiet(logger)
  })

  it('"Too many files" is 413 PAYLOAD_TOO_LARGE', async () => {
    const { app, logger } = multerApp(express)
    let req = request(app).post('/photos')
    for (let i = 0; i < 3; i++) req = req.attach('photos', Buffer.from('x'), `p${i}.txt`)
    const res = await req
    expect(res.status).toBe(413)
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE')
    expect(res.body.message).toBe('Request body has too many files')
    quiet(logger)
  })

  it('an unexpected file field is 400 BAD_REQUEST', async () => {
    const { app, logger } = multerApp(express)
    const res = await request(app).post('/avatar').attach('other', Buffer.from('x'), 'x.txt')
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({
      success: false,
      message: 'Unexpected file field',
      error: { code: 'BAD_REQUEST', details: { field: 'other' } },
    })
    quiet(logger)
  })

  it('a field name unsafe to repeat is not repeated', async () => {
    const { app } = multerApp(express)
    const res = await request(app).post('/avatar').attach('x<script>', Buffer.from('x'), 'x.txt')
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', details: null })
    expect(res.text).not.toContain('script')
  })

  it('too many fields and too long a value are 413', async () => {
    const { app } = multerApp(express)
    let req = request(app).post('/avatar')
    for (let i = 0; i < 5; i++) req = req.field(`f${i}`, 'v')
    expect((await req).body.message).toBe('Request body has too many fields')
    const long = await request(app).post('/avatar').field('f', 'v'.repeat(100))
    expect(long.status).toBe(413)
    expect(long.body.message).toBe('Form field value is too long')
  })

  it('a body that ends before its closing boundary is 400, in problem+json too', async () => {
    for (const format of [undefined, 'problem+json'] as const) {
      const { app, logger } = multerApp(express, format)
      const body =
        '--b\r\nContent-Disposition: form-data; name="avatar"; filename="a.txt"\r\n\r\nab'
      const res = await rawPost(
        app,
        '/avatar',
        {
          'content-type': 'multipart/form-data; boundary=b',
          'content-length': String(body.length),
        },
        body,
      )
      expect(res.status).toBe(400)
      expect(JSON.stringify(res.body)).toContain('Multipart body ended')
      quiet(logger)
    }
  })

  it('a multipart Content-Type without a boundary is 400, its value never echoed', async () => {
    const { app } = multerApp(express)
    const res = await rawPost(
      app,
      '/avatar',
      {
        'content-type': 'multipart/form-data; charset=evil',
        'content-length': '2',
      },
      'ab',
    )
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body)).not.toContain('evil')
  })
})
