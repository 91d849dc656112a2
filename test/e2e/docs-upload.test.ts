import express from 'express'
import multer from 'multer'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { createDocs, generateOpenAPI } from '../../src/openapi/index.js'
import { file } from '../../src/shared/file-field.js'
import {
  chromiumAvailable,
  chromiumSkipReason,
  launchChromium,
  problems,
  type TestBrowser,
  watchedPage,
} from '../support/chromium.js'
import { listen } from '../support/docs-pages.js'

const available = chromiumAvailable()

// The document of a route with files, as generateOpenAPI writes it: Swagger UI's try-it-out shows
// a file input per file field (it reads `format: binary`, which the document writes beside
// `contentMediaType`) and sends the file in a multipart/form-data request.
const spec = generateOpenAPI({
  title: 'Uploads',
  version: '1.0.0',
  routes: {
    'POST /upload': {
      summary: 'Upload a picture',
      files: {
        avatar: file({ types: ['image/png'], description: 'The picture' }),
        photos: file.many({ types: ['image/*'], max: 3, optional: true }),
      },
      body: z.object({ title: z.string() }),
    },
  },
})

interface Arrived {
  contentType: string | undefined
  fields: Record<string, unknown>
  files: { field: string; name: string; type: string; size: number }[]
}

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

describe.skipIf(!available)(
  available
    ? 'Swagger UI try-it-out of a route with files'
    : `Swagger UI try-it-out of a route with files (${chromiumSkipReason})`,
  () => {
    let browser: TestBrowser
    let context: BrowserContext
    let server: Awaited<ReturnType<typeof listen>>
    const arrived: Arrived[] = []

    beforeAll(async () => {
      const app = express()
      app.use('/docs', createDocs({ spec, assets: 'local' }))
      // A plain handler that reports what arrived (multer reads the body, in memory).
      app.post('/upload', multer({ storage: multer.memoryStorage() }).any(), (req, res) => {
        const files = (req.files ?? []) as Express.Multer.File[]
        arrived.push({
          contentType: req.get('content-type'),
          fields: { ...req.body },
          files: files.map((f) => ({
            field: f.fieldname,
            name: f.originalname,
            type: f.mimetype,
            size: f.size,
          })),
        })
        res.status(201).json({ success: true, message: '', data: null })
      })
      server = await listen(app)
      browser = await launchChromium()
      context = await browser.browser.newContext({ viewport: { width: 1000, height: 1400 } })
    }, 60_000)

    afterAll(async () => {
      await browser?.close()
      await server?.close()
    })

    it('shows a file input per file field and sends the files in a multipart request', async () => {
      const watch = await watchedPage(context)
      const { page } = watch
      await page.goto(`${server.origin}/docs`)
      const block = page.locator('#operations-default-postUpload')
      await block.locator('.opblock-summary').click()
      // createDocs opens try-it-out by default (tryItOutEnabled).
      const row = (name: string) => block.locator(`tr[data-property-name="${name}"]`)
      await row('title').locator('input').fill('Holiday')
      const avatar = row('avatar').locator('input[type=file]')
      await expect.poll(() => avatar.count()).toBe(1)
      await avatar.setInputFiles({ name: 'cat.png', mimeType: 'image/png', buffer: png })
      // file.many(): an array of file inputs, one shown, more added by a button.
      const photos = row('photos').locator('input[type=file]')
      await photos.first().setInputFiles({ name: 'dog.png', mimeType: 'image/png', buffer: png })
      await row('photos').getByRole('button', { name: 'Add string item' }).click()
      await photos.nth(1).setInputFiles({ name: 'fox.png', mimeType: 'image/png', buffer: png })
      await block.locator('.btn.execute').click()
      await block.locator('.live-responses-table').waitFor({ timeout: 15_000 })
      await expect.poll(() => arrived.length).toBe(1)
      const [request] = arrived
      expect(request!.contentType).toMatch(/^multipart\/form-data; boundary=/)
      expect(request!.fields).toEqual({ title: 'Holiday' })
      expect(request!.files).toEqual([
        { field: 'avatar', name: 'cat.png', type: 'image/png', size: png.length },
        { field: 'photos', name: 'dog.png', type: 'image/png', size: png.length },
        { field: 'photos', name: 'fox.png', type: 'image/png', size: png.length },
      ])
      const status = block.locator('.live-responses-table tr.response .response-col_status')
      expect(await status.first().textContent()).toContain('201')
      expect(problems(watch)).toEqual([])
      expect(watch.outside).toEqual([])
      await page.close()
    }, 30_000)
  },
)
