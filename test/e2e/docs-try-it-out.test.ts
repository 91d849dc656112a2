import express, { type RequestHandler } from 'express'
import type { BrowserContext, Page } from 'playwright-core'
// The same module the demo imports (the package's own name), so its logger is the demo's.
import { configureLogger } from 'shapeguard'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/demo/app.js'
import { createDocs, serveSwaggerUI } from '../../src/openapi/index.js'
import { demoSpec } from '../fixtures/docs-spec.js'
import {
  chromiumAvailable,
  chromiumSkipReason,
  launchChromium,
  type PageWatch,
  problems,
  type TestBrowser,
  watchedPage,
} from '../support/chromium.js'
import { listen } from '../support/docs-pages.js'

const available = chromiumAvailable()

interface Seen {
  path: string
  authorization: string | undefined
  intercepted: string | undefined
}

async function execute(
  page: Page,
  operation: string,
  params: Record<string, string> = {},
): Promise<void> {
  const block = page.locator(`#operations-users-${operation}`)
  await block.locator('.opblock-summary').click()
  for (const [name, value] of Object.entries(params)) {
    await block.locator(`tr[data-param-name="${name}"] input`).fill(value)
  }
  await block.locator('.btn.execute').click()
  await block.locator('.live-responses-table').waitFor({ timeout: 15_000 })
}

describe.skipIf(!available)(
  available ? 'Swagger UI try-it-out' : `Swagger UI try-it-out (${chromiumSkipReason})`,
  () => {
    let browser: TestBrowser
    let context: BrowserContext
    let server: Awaited<ReturnType<typeof listen>>
    const seen: Seen[] = []
    let oauthDocs: RequestHandler = (_req, _res, next) => next()

    beforeAll(async () => {
      const app = express()
      app.use((req, _res, next) => {
        if (req.path.startsWith('/users')) {
          seen.push({
            path: req.path,
            authorization: req.headers.authorization,
            intercepted: req.get('x-docs-interceptor'),
          })
        }
        next()
      })
      app.use(
        '/internal/docs',
        createDocs({
          spec: demoSpec(),
          assets: 'local',
          title: 'Demo </title> API',
          requestInterceptor:
            "if (request.url.indexOf('/users') !== -1) request.headers['x-docs-interceptor'] = 'yes'\nreturn request",
          responseInterceptor: 'window.lastStatus = response.status',
        }),
      )
      // An OAuth2 (implicit flow) sign-in against a fake authorization server of the test's own;
      // the spec names it by its absolute URL, known once the server listens.
      app.get('/fake-authorize', (req, res) => {
        const { redirect_uri, state } = req.query as Record<string, string>
        res.redirect(`${redirect_uri}#access_token=tok-oauth&token_type=Bearer&state=${state}`)
      })
      app.use('/oauth-docs', (req, res, next) => oauthDocs(req, res, next))
      // The live demo API behind the page, same origin; its request log is not this test's output.
      configureLogger({ silent: true })
      app.use(createApp())
      server = await listen(app)
      const spec = demoSpec()
      spec.components.securitySchemes = {
        oauth: {
          type: 'oauth2',
          flows: {
            implicit: {
              authorizationUrl: `${server.origin}/fake-authorize`,
              scopes: { read: 'Read users' },
            },
          },
        },
      }
      spec.security = [{ oauth: ['read'] }]
      oauthDocs = serveSwaggerUI(spec, { assets: 'local' })
      browser = await launchChromium()
      context = await browser.browser.newContext({ viewport: { width: 1000, height: 800 } })
    }, 60_000)

    afterAll(async () => {
      await browser?.close()
      await server?.close()
    })

    let watch: PageWatch

    it('calls the live demo API and shows its answer, through the interceptors', async () => {
      watch = await watchedPage(context)
      await watch.page.goto(`${server.origin}/internal/docs`)
      expect(await watch.page.title()).toBe('Demo </title> API')
      await execute(watch.page, 'listUsers')
      const answer = watch.page.locator('#operations-users-listUsers .live-responses-table')
      await expect.poll(() => answer.textContent()).toContain('Ada Lovelace')
      expect(
        await answer.locator('tr.response .response-col_status').first().textContent(),
      ).toContain('200')
      expect(seen.at(-1)).toEqual({ path: '/users', authorization: undefined, intercepted: 'yes' })
      expect(await watch.page.evaluate('window.lastStatus')).toBe(200)
      expect(problems(watch)).toEqual([])
      expect(watch.outside).toEqual([])
    }, 30_000)

    it('keeps a bearer token across a reload (persistAuthorization)', async () => {
      const { page } = watch
      await page.locator('.btn.authorize').first().click()
      await page.locator('.modal-ux input').first().fill('token-from-the-docs')
      await page.locator('.modal-ux .auth-btn-wrapper .authorize').click()
      await page.locator('.modal-ux .btn-done').click()
      await page.reload()
      await execute(page, 'getUser', { id: '1' })
      await expect.poll(() => seen.at(-1)?.path).toBe('/users/1')
      expect(seen.at(-1)?.authorization).toBe('Bearer token-from-the-docs')
      const answer = page.locator('#operations-users-getUser .live-responses-table')
      await expect.poll(() => answer.textContent()).toContain('Ada Lovelace')
      expect(problems(watch)).toEqual([])
      await page.close()
    }, 30_000)

    it('signs in with OAuth2 through its redirect page and sends the token', async () => {
      const watch = await watchedPage(context)
      const { page } = watch
      await page.goto(`${server.origin}/oauth-docs`)
      await page.locator('.btn.authorize').first().click()
      await page.locator('.modal-ux input[type=text]').first().fill('docs-client')
      await page.getByText('select all').click()
      const popup = context.waitForEvent('page')
      await page.locator('.modal-ux .auth-btn-wrapper .authorize').click()
      const signIn = await popup
      // The redirect page closes itself once it has handed the token to the opener.
      await expect.poll(() => signIn.isClosed(), { timeout: 10_000 }).toBe(true)
      await page.locator('.modal-ux').getByText('Authorized').waitFor()
      await page.locator('.modal-ux .close-modal').click()
      await execute(page, 'getUser', { id: '2' })
      await expect.poll(() => seen.at(-1)?.path).toBe('/users/2')
      expect(seen.at(-1)?.authorization).toBe('Bearer tok-oauth')
      expect(problems(watch)).toEqual([])
      await page.close()
    }, 30_000)
  },
)
