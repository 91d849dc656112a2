import express from 'express'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { createDocs, generateOpenAPI } from '../../src/openapi/index.js'
import { handle } from '../../src/runtime/pipeline/handle.js'
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

// An app with an SSE route, documented from the app: Swagger UI shows its 200 as
// text/event-stream, names its events and renders each event's schema.
function streamingApp() {
  const app = express()
  const ok = (_req: unknown, res: { end(): void }) => res.end()
  app.get(
    '/chat',
    ...handle(
      {
        summary: 'Chat with the model',
        events: {
          token: z.object({ text: z.string() }),
          done: z.object({ promptTokens: z.number().int() }),
        },
      },
      ok,
    ),
  )
  const spec = generateOpenAPI({ title: 'Streams', version: '1.0.0', app })
  app.use('/docs', createDocs({ spec, assets: 'local' }))
  return app
}

describe.skipIf(!available)(
  available
    ? 'Swagger UI of a route with events'
    : `Swagger UI of a route with events (${chromiumSkipReason})`,
  () => {
    let browser: TestBrowser
    let context: BrowserContext
    let server: Awaited<ReturnType<typeof listen>>

    beforeAll(async () => {
      server = await listen(streamingApp())
      browser = await launchChromium()
      context = await browser.browser.newContext({ viewport: { width: 1000, height: 1400 } })
    }, 60_000)

    afterAll(async () => {
      await browser?.close()
      await server?.close()
    })

    it('shows text/event-stream as the success media type, the event names and their fields', async () => {
      const watch = await watchedPage(context)
      const { page } = watch
      await page.goto(`${server.origin}/docs`)
      const block = page.locator('#operations-default-getChat')
      await block.locator('.opblock-summary').click()
      const ok = block.locator('tr.response[data-code="200"]')
      await ok.waitFor({ timeout: 15_000 })
      await expect
        .poll(() => ok.locator('.response-controls select').first().inputValue())
        .toBe('text/event-stream')
      const description = await ok.locator('.response-col_description').textContent()
      expect(description).toContain('Server-Sent Events: token, done')
      // The example value Swagger UI makes from the schema: the first event, its data an object.
      const example = (await ok.locator('.example.microlight').textContent()) ?? ''
      expect(JSON.parse(example)).toEqual({
        event: 'token',
        data: { text: 'string' },
        id: 'string',
      })
      expect(problems(watch)).toEqual([])
      expect(watch.outside).toEqual([])
      await page.close()
    }, 30_000)
  },
)
