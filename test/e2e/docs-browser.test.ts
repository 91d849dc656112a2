import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import express from 'express'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UI_PACKAGES } from '../../src/openapi/docs/assets.js'
import { serveDocs, serveSwaggerUI } from '../../src/openapi/index.js'
import { demoSpec } from '../fixtures/docs-spec.js'
import {
  chromiumAvailable,
  chromiumSkipReason,
  launchChromium,
  problems,
  type TestBrowser,
  watchedPage,
} from '../support/chromium.js'
import { listen, uis, waitForOperation } from '../support/docs-pages.js'

const available = chromiumAvailable()
// The README's screenshots: written to docs/images when SHAPEGUARD_SCREENSHOTS=1, else to a
// temporary folder (taken all the same, so the step is exercised).
const shots =
  process.env.SHAPEGUARD_SCREENSHOTS === '1'
    ? resolve(import.meta.dirname, '../../docs/images')
    : mkdtempSync(join(tmpdir(), 'shapeguard-docs-shots-'))
const user = { username: 'reader', password: 'docs-secret' }
const basic = `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`

describe.skipIf(!available)(
  available ? 'docs pages in chromium' : `docs pages in chromium (${chromiumSkipReason})`,
  () => {
    let browser: TestBrowser
    let context: BrowserContext
    let server: Awaited<ReturnType<typeof listen>>

    beforeAll(async () => {
      const app = express()
      // The integrator's own auth in front of the docs, and a sub-path mount.
      app.use('/internal', (req, res, next) => {
        if (req.headers.authorization === basic) next()
        else res.status(401).set('WWW-Authenticate', 'Basic realm="docs"').end()
      })
      // The default assets: the installed package's files (every UI is a dev dependency).
      for (const [ui] of uis) {
        app.use(`/internal/docs/${ui}`, serveDocs(demoSpec(), { ui }))
        app.use(`/cdn/${ui}`, serveDocs(demoSpec(), { ui, assets: 'cdn' }))
      }
      app.use('/theme/light', serveSwaggerUI(demoSpec(), { assets: 'local', theme: 'light' }))
      app.use('/theme/auto', serveSwaggerUI(demoSpec(), { assets: 'local' }))
      server = await listen(app)
      browser = await launchChromium()
      context = await browser.browser.newContext({
        viewport: { width: 1000, height: 620 },
        httpCredentials: user,
      })
      mkdirSync(shots, { recursive: true })
    }, 60_000)

    afterAll(async () => {
      await browser?.close()
      await server?.close()
    })

    it.each(uis)(
      '%s loads from the installed package by default, behind auth under a sub-path: shows the operations, stays on 127.0.0.1 with no CSP violation',
      async (ui) => {
        const watch = await watchedPage(context)
        const answer = await watch.page.goto(`${server.origin}/internal/docs/${ui}`)
        expect(answer?.status()).toBe(200)
        expect(answer?.headers()['content-security-policy']).toContain("script-src 'self' 'sha256-")
        await waitForOperation(watch.page, ui, 'List users')
        await waitForOperation(watch.page, ui, 'Create a user')
        // Redoc folds its sidebar: open the first tag so the picture shows operations there too.
        if (ui === 'redoc') await watch.page.locator('.menu-content label').first().click()
        await watch.page.screenshot({ path: join(shots, `${ui}.png`) })
        expect(problems(watch)).toEqual([])
        expect(watch.outside).toEqual([])
        await watch.page.close()
      },
      30_000,
    )

    it.each(uis)(
      '%s loads in CDN mode: the pinned files pass their SRI check under the automatic CSP',
      async (ui) => {
        const watch = await watchedPage(context, { cdnFromPackages: true })
        const answer = await watch.page.goto(`${server.origin}/cdn/${ui}/`)
        const pkg = UI_PACKAGES[ui]
        // Only the pinned package's folder on the CDN, not the whole CDN.
        expect(answer?.headers()['content-security-policy']).toContain(
          `script-src https://cdn.jsdelivr.net/npm/${pkg.name}@${pkg.version}/ 'sha256-`,
        )
        await waitForOperation(watch.page, ui, 'List users')
        expect(problems(watch)).toEqual([])
        expect(watch.outside).toEqual(
          pkg.files.map(
            (f) => `cdn https://cdn.jsdelivr.net/npm/${pkg.name}@${pkg.version}/${f.path}`,
          ),
        )
        await watch.page.close()
      },
      30_000,
    )

    it('Scalar keeps a bearer token across a reload (persistAuth)', async () => {
      const watch = await watchedPage(context)
      await watch.page.goto(`${server.origin}/internal/docs/scalar`)
      await watch.page.getByPlaceholder('Token').first().fill('scalar-token')
      await expect
        .poll(() => watch.page.evaluate('JSON.stringify(localStorage)'))
        .toContain('scalar-token')
      await watch.page.reload()
      await expect
        .poll(() => watch.page.getByPlaceholder('Token').first().inputValue())
        .toBe('scalar-token')
      expect(problems(watch)).toEqual([])
      await watch.page.close()
    }, 30_000)

    it("Swagger UI's theme: 'auto' follows the OS, dark with method-coloured borders", async () => {
      const colours = async (path: string, scheme: 'light' | 'dark') => {
        const watch = await watchedPage(context)
        await watch.page.emulateMedia({ colorScheme: scheme })
        await watch.page.goto(`${server.origin}${path}`)
        await waitForOperation(watch.page, 'swagger', 'List users')
        const read = (selector: string, property: string) =>
          watch.page.evaluate(
            `getComputedStyle(document.querySelector(${JSON.stringify(selector)}))[${JSON.stringify(property)}]`,
          )
        const result = {
          body: await read('body', 'backgroundColor'),
          get: await read('.opblock.opblock-get', 'borderLeftColor'),
          post: await read('.opblock.opblock-post', 'borderLeftColor'),
        }
        expect(problems(watch)).toEqual([])
        await watch.page.close()
        return result
      }
      expect(await colours('/theme/auto', 'dark')).toEqual({
        body: 'rgb(15, 19, 24)',
        get: 'rgb(97, 175, 254)',
        post: 'rgb(73, 204, 144)',
      })
      expect((await colours('/theme/auto', 'light')).body).toBe('rgba(0, 0, 0, 0)')
      expect((await colours('/theme/light', 'dark')).body).toBe('rgba(0, 0, 0, 0)')
    }, 30_000)

    it('refuses a CDN file whose bytes are not the pinned ones (SRI)', async () => {
      const watch = await watchedPage(context)
      await watch.page.route('https://cdn.jsdelivr.net/**', (route) =>
        route.fulfill({
          status: 200,
          body: 'window.pwned = 1',
          headers: { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' },
        }),
      )
      await watch.page.goto(`${server.origin}/cdn/redoc`)
      await expect.poll(() => watch.consoleErrors.join('\n')).toMatch(/integrity/)
      expect(await watch.page.evaluate('window.pwned')).toBeUndefined()
      await watch.page.close()
    })

    it("serves nothing past the integrator's auth without credentials", async () => {
      const bare = await browser.browser.newContext()
      for (const path of ['/internal/docs/swagger', '/internal/docs/redoc/openapi.json']) {
        expect((await bare.request.get(`${server.origin}${path}`)).status()).toBe(401)
      }
      await bare.close()
    })
  },
)
