import { readdirSync } from 'node:fs'
import { dirname } from 'node:path'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { configureLogger, errorHandler, file, handle, shapeguard } from '../../../src/index.js'
import { uploadDirectory } from '../../../src/runtime/multipart/storage.js'
import { type Express, hosts } from '../../support/e2e.js'

beforeAll(() => {
  configureLogger({ silent: true })
})

const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(40, 7),
])
// A real DOS/PE header, as every Windows executable starts.
const exe = Buffer.concat([
  Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, 0, 0, 0xb8, 0]),
  Buffer.alloc(44, 0),
])

const route = {
  files: {
    avatar: file({ types: ['image/png'], maxBytes: 1000 }),
    photos: file.many({ types: ['image/*'], max: 2, optional: true }),
    attachment: file({ optional: true, storage: 'disk' }),
  },
  body: z.object({
    title: z.string(),
    count: z.coerce.number().int().optional(),
    tags: z.array(z.string()).optional(),
  }),
  warnings: { missingResponseSchema: false },
}

let seen: any

function appWith(express: Express, options: Parameters<typeof shapeguard>[0] = {}) {
  const app = express()
  app.use(shapeguard(options))
  app.use(express.json())
  app.post(
    '/upload',
    ...handle(route, (req, res) => {
      const { avatar, photos, attachment } = req.files
      seen = { body: req.body, files: req.files }
      res.ok({
        data: {
          body: req.body,
          avatar: { name: avatar.name, type: avatar.type, size: avatar.size },
          avatarBytes: avatar.buffer.length,
          photos: photos.map((p) => p.name),
          attachment:
            attachment === undefined ? null : { path: attachment.path, size: attachment.size },
          keys: Object.keys(req.files),
        },
      })
    }),
  )
  app.use(errorHandler())
  return app
}

const tempFiles = async () => readdirSync(await uploadDirectory()).length

describe.each(hosts)('uploads on %s', (_, express) => {
  const app = appWith(express)

  it('gives the handler the files and the text fields, validated and coerced', async () => {
    const res = await request(app)
      .post('/upload')
      .field('title', 'Hello')
      .field('count', '3')
      .attach('avatar', png, 'me.png')
      .attach('photos', png, 'a.png')
      .attach('photos', png, 'b.png')
      .attach('attachment', Buffer.from('plain text'), 'notes.txt')
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({
      body: { title: 'Hello', count: 3 },
      avatar: { name: 'me.png', type: 'image/png', size: png.length },
      avatarBytes: png.length,
      photos: ['a.png', 'b.png'],
      attachment: { size: 10 },
      keys: ['avatar', 'photos', 'attachment'],
    })
    expect(Object.getPrototypeOf(seen.files)).toBe(null)
  })

  it('leaves an optional file absent, an empty many field [], and makes a repeated array field an array', async () => {
    const res = await request(app)
      .post('/upload')
      .field('title', 'x')
      .field('tags', 'a')
      .field('tags', 'b')
      .attach('avatar', png, 'me.png')
    expect(res.status).toBe(201)
    expect(res.body.data.body).toEqual({ title: 'x', tags: ['a', 'b'] })
    expect(res.body.data.keys).toEqual(['avatar', 'photos'])
    expect(res.body.data.photos).toEqual([])
    // A single value of a field that takes only arrays is a one-element array.
    const one = await request(app)
      .post('/upload')
      .field('title', 'x')
      .field('tags', 'a')
      .attach('avatar', png, 'me.png')
    expect(one.body.data.body.tags).toEqual(['a'])
  })

  it('refuses a repeated text field the schema does not take as an array, as a query key', async () => {
    const res = await request(app)
      .post('/upload')
      .field('title', 'x')
      .field('title', 'y')
      .attach('avatar', png, 'me.png')
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 'PARAM_POLLUTION', details: { param: 'title' } })
    // The client's name is in details only: a message is logged.
    expect(res.body.error.message).not.toContain('title')
  })

  it('refuses SVG or HTML declared as an image for an image/* field: a family needs a signature', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    )
    for (const type of ['image/svg+xml', 'image/x-foo']) {
      const res = await request(app)
        .post('/upload')
        .field('title', 'x')
        .attach('avatar', png, 'me.png')
        .attach('photos', svg, { filename: 'a.svg', contentType: type })
      expect(res.status).toBe(415)
      expect(res.body.error.details).toMatchObject({ field: 'files.photos' })
    }
  })

  it('takes an empty file input of a browser form (filename="", no bytes) as no file', async () => {
    const B = 'XyZ'
    const empty = (name: string) =>
      `--${B}\r\nContent-Disposition: form-data; name="${name}"; filename=""\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n\r\n'
    const send = (parts: string) =>
      request(app)
        .post('/upload')
        .set('Content-Type', `multipart/form-data; boundary=${B}`)
        .send(
          Buffer.concat([
            Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n`),
            Buffer.from(parts, 'latin1'),
            Buffer.from(`--${B}--\r\n`),
          ]),
        )
    const avatar = Buffer.concat([
      Buffer.from(
        `--${B}\r\nContent-Disposition: form-data; name="avatar"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from('\r\n'),
    ]).toString('latin1')
    // Typed (photos: image/*) and untyped (attachment) empty inputs: neither 415 nor a 0-byte file.
    const res = await send(avatar + empty('photos') + empty('attachment'))
    expect(res.status).toBe(201)
    expect(res.body.data.photos).toEqual([])
    expect(res.body.data.attachment).toBe(null)
    expect(res.body.data.keys).toEqual(['avatar', 'photos'])
    // An empty input does not satisfy a required field.
    const missing = await send(empty('avatar'))
    expect(missing.status).toBe(422)
    expect(missing.body.error.details).toMatchObject({
      field: 'files.avatar',
      message: 'File is required',
    })
  })

  it('writes a disk field to a private temporary file, removed when the response ends', async () => {
    const before = await tempFiles()
    const res = await request(app)
      .post('/upload')
      .field('title', 'x')
      .attach('avatar', png, 'me.png')
      .attach('attachment', Buffer.alloc(5000, 1), 'big.bin')
    expect(res.status).toBe(201)
    const path: string = res.body.data.attachment.path
    expect(dirname(path)).toBe(await uploadDirectory())
    await new Promise((r) => setTimeout(r, 50))
    expect(await tempFiles()).toBe(before)
  })

  it('reduces the client filename to a safe last segment', async () => {
    for (const [raw, safe] of [
      ['../../etc/passwd', 'passwd'],
      ['..\\..\\win.ini', 'win.ini'],
      ['a\u202Egnp.exe', 'agnp.exe'],
      [`${'n'.repeat(1000)}.png`, `${'n'.repeat(251)}.png`],
    ] as const) {
      const res = await request(app).post('/upload').field('title', 'x').attach('avatar', png, raw)
      expect(res.status).toBe(201)
      expect(res.body.data.avatar.name).toBe(safe)
    }
  })

  it('refuses a filename of 10 KB with 422 naming the field, never echoing it', async () => {
    const res = await request(app)
      .post('/upload')
      .field('title', 'x')
      .attach('avatar', png, `${'n'.repeat(10_000)}.png`)
    expect(res.status).toBe(422)
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'files.avatar', message: 'Filename is longer than 1024 characters' },
    })
    expect(res.text).not.toContain('nnnn')
  })

  it('answers 413 naming the field for a file over its maxBytes', async () => {
    const res = await request(app)
      .post('/upload')
      .field('title', 'x')
      .attach('avatar', Buffer.concat([png, Buffer.alloc(5000)]), 'me.png')
    expect(res.status).toBe(413)
    expect(res.body.error).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'File files.avatar is larger than 1000 bytes',
      details: { field: 'files.avatar', maxBytes: 1000 },
    })
  })

  it('answers 415 by the content, not the name or the declared type (evil.exe renamed cat.png)', async () => {
    const res = await request(app)
      .post('/upload')
      .field('title', 'x')
      .attach('avatar', exe, { filename: 'cat.png', contentType: 'image/png' })
    expect(res.status).toBe(415)
    expect(res.body.error).toMatchObject({
      code: 'INVALID_CONTENT_TYPE',
      details: { field: 'files.avatar', allowed: ['image/png'] },
    })
  })

  it('stores gzip bytes in a file field as they came, never inflated', async () => {
    const gzip = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, ...Buffer.alloc(100, 0)])
    const res = await request(app)
      .post('/upload')
      .field('title', 'x')
      .attach('avatar', png, 'me.png')
      .attach('attachment', gzip, 'bomb.gz')
    expect(res.status).toBe(201)
    expect(res.body.data.attachment.size).toBe(gzip.length)
  })

  it('answers 422 naming the field for too many files, a missing one, or an undeclared one', async () => {
    const many = await request(app)
      .post('/upload')
      .field('title', 'x')
      .attach('avatar', png, 'me.png')
      .attach('photos', png, '1.png')
      .attach('photos', png, '2.png')
      .attach('photos', png, '3.png')
    expect(many.status).toBe(422)
    expect(many.body.error.details).toEqual({
      field: 'files.photos',
      message: 'At most 2 files are accepted',
    })
    const twice = await request(app)
      .post('/upload')
      .field('title', 'x')
      .attach('avatar', png, 'me.png')
      .attach('avatar', png, 'me2.png')
    expect(twice.status).toBe(422)
    expect(twice.body.error.details).toEqual({
      field: 'files.avatar',
      message: 'Only one file is accepted',
    })
    const missing = await request(app).post('/upload').field('title', 'x')
    expect(missing.status).toBe(422)
    expect(missing.body.error.details).toEqual({
      field: 'files.avatar',
      message: 'File is required',
    })
    const undeclared = await request(app)
      .post('/upload')
      .field('title', 'x')
      .attach('resume', png, 'cv.png')
    expect(undeclared.status).toBe(422)
    expect(undeclared.body.error.details).toEqual({
      field: 'files.resume',
      message: 'Unexpected file field',
    })
  })

  it('answers 400 for __proto__ as a text field and 422 as a file field, no prototype touched', async () => {
    const field = await request(app)
      .post('/upload')
      .field('title', 'x')
      .field('__proto__', 'polluted')
      .attach('avatar', png, 'me.png')
    expect(field.status).toBe(400)
    expect(field.body.error.code).toBe('PROTO_POLLUTION')
    const asFile = await request(app)
      .post('/upload')
      .field('title', 'x')
      .attach('__proto__', png, 'me.png')
    expect(asFile.status).toBe(422)
    expect(asFile.body.error.details.field).toBe('files.__proto__')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('validates the text fields with the body schema', async () => {
    const res = await request(app)
      .post('/upload')
      .field('count', 'many')
      .attach('avatar', png, 'me.png')
    expect(res.status).toBe(422)
    expect(res.body.error.code).toBe('VALIDATION_ERROR')
  })

  it('answers 415 naming multipart/form-data for another body, and for a compressed one', async () => {
    const json = await request(app).post('/upload').send({ title: 'x' })
    expect(json.status).toBe(415)
    expect(json.body.error).toMatchObject({
      code: 'INVALID_CONTENT_TYPE',
      details: { allowed: ['multipart/form-data'] },
    })
    const gzipped = await request(app)
      .post('/upload')
      .set('Content-Encoding', 'gzip')
      .field('title', 'x')
      .attach('avatar', png, 'me.png')
    expect(gzipped.status).toBe(415)
    expect(gzipped.body.error.message).toMatch(/Content-Encoding/)
  })

  it('answers in problem+json when the app does', async () => {
    const problem = appWith(express, { errors: { format: 'problem+json' } })
    const res = await request(problem)
      .post('/upload')
      .field('title', 'x')
      .attach('avatar', Buffer.concat([png, Buffer.alloc(5000)]), 'me.png')
    expect(res.status).toBe(413)
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/)
    expect(res.body).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' })
  })

  it('bounds text fields: a string past maxStringLength and more fields than maxArrayLength', async () => {
    const limited = express()
    limited.use(shapeguard({ validation: { limits: { maxStringLength: 10, maxArrayLength: 5 } } }))
    limited.post(
      '/u',
      ...handle({ files: { f: file({ optional: true }) } }, (_req, res) => res.ok({ data: 1 })),
    )
    limited.use(errorHandler())
    const long = await request(limited).post('/u').field('a', 'x'.repeat(100))
    expect(long.status).toBe(400)
    expect(long.body.error.code).toBe('STRING_TOO_LONG')
    let many = request(limited).post('/u')
    for (let i = 0; i < 10; i++) many = many.field(`k${i}`, 'v')
    const res = await many
    expect(res.status).toBe(413)
    expect(res.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { limit: 5 } })
  })
})
