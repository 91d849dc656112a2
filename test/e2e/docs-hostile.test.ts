import express from 'express'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDocs, serveDocs } from '../../src/openapi/index.js'
import { hostileSpec } from '../fixtures/docs-spec.js'
import {
  chromiumAvailable,
  chromiumSkipReason,
  launchChromium,
  type TestBrowser,
  watchedPage,
} from '../support/chromium.js'
import { listen, uis } from '../support/docs-pages.js'

const available = chromiumAvailable()

// A description that styles the page: a <style> element and a style attribute.
const styled =
  'before the style <style>html body { outline: 5px solid rgb(1, 2, 3) !important }</style> ' +
  '<span class="sg-styled" style="display: block; background: rgb(4, 5, 6)">after</span>'

/** A spec with the styling payload in every kind of description the UIs render as Markdown. */
function styleSpec(): Record<string, unknown> {
  const schema = { type: 'object', description: styled, properties: { a: { type: 'string' } } }
  return {
    openapi: '3.1.0',
    info: { title: 'Styled', version: '1', description: styled },
    tags: [{ name: 'items', description: styled }],
    paths: {
      '/items/{id}': {
        get: {
          tags: ['items'],
          summary: 'Get item',
          description: styled,
          operationId: 'getItem',
          parameters: [
            {
              name: 'id',
              in: 'path',
              required: true,
              description: styled,
              schema: { type: 'string' },
            },
          ],
          responses: {
            '200': { description: styled, content: { 'application/json': { schema } } },
          },
        },
      },
    },
  }
}

// Whether the payload styled the page: the body's outline, and a spanned element's background.
const injected = `({
  outline: getComputedStyle(document.body).outlineStyle,
  attribute: [...document.querySelectorAll('.sg-styled')].some(
    (e) => getComputedStyle(e).backgroundColor === 'rgb(4, 5, 6)',
  ),
})`

describe.skipIf(!available)(
  available ? 'a hostile spec in chromium' : `a hostile spec in chromium (${chromiumSkipReason})`,
  () => {
    let browser: TestBrowser
    let context: BrowserContext
    let server: Awaited<ReturnType<typeof listen>>

    beforeAll(async () => {
      const app = express()
      for (const [ui] of uis)
        app.use(`/docs/${ui}`, serveDocs(hostileSpec(), { ui, assets: 'local' }))
      app.use('/create-docs', createDocs({ spec: hostileSpec(), assets: 'local' }))
      app.use('/control', serveDocs(hostileSpec(), { ui: 'redoc', assets: 'local', csp: false }))
      for (const [ui] of uis)
        app.use(`/style/${ui}`, serveDocs(styleSpec(), { ui, assets: 'local' }))
      app.use('/style/create-docs', createDocs({ spec: styleSpec(), assets: 'local' }))
      app.use(
        '/style/control',
        serveDocs(styleSpec(), { ui: 'redoc', assets: 'local', csp: false }),
      )
      server = await listen(app)
      browser = await launchChromium()
      context = await browser.browser.newContext({ viewport: { width: 1000, height: 800 } })
    }, 60_000)

    afterAll(async () => {
      await browser?.close()
      await server?.close()
    })

    it.each([...uis.map(([ui]) => `/docs/${ui}`), '/create-docs'])(
      '%s renders the payloads as text and runs none of them',
      async (path) => {
        const watch = await watchedPage(context)
        await watch.page.goto(`${server.origin}${path}`)
        await watch.page.getByText('Get </script>').filter({ visible: true }).first().waitFor()
        // Open what is folded, then try every link the UI made from the spec.
        for (const summary of await watch.page.locator('.opblock-summary').all())
          await summary.click()
        const links = await watch.page.locator('a[href^="javascript:" i]').all()
        for (const link of links)
          await link.click({ force: true, noWaitAfter: true }).catch(() => {})
        await watch.page.waitForTimeout(300)
        expect(await watch.page.evaluate('window.pwned')).toBeUndefined()
        // What the page refused is only script the spec tried to run (an inline handler, a
        // javascript: link a UI kept); nothing of the UI itself was blocked.
        const refused = watch.violations.filter(
          (v) =>
            !/^script-src-(attr|elem) inline /.test(v) && !/^script-src-elem? javascript:/.test(v),
        )
        expect(refused).toEqual([])
        expect(watch.outside).toEqual([])
        await watch.page.close()
      },
      30_000,
    )

    // Each UI's own cleaning, and for Redoc (whose DOMPurify keeps <style> and style="…") the
    // automatic policy's style nonce: what the spec's Markdown brings styles nothing.
    it.each([...uis.map(([ui]) => `/style/${ui}`), '/style/create-docs'])(
      '%s applies no <style> and no style attribute from the spec',
      async (path) => {
        const watch = await watchedPage(context)
        await watch.page.goto(`${server.origin}${path}`)
        await watch.page.getByText('Get item').filter({ visible: true }).first().waitFor()
        for (const summary of await watch.page.locator('.opblock-summary').all())
          await summary.click()
        await watch.page.getByText('before the style').filter({ visible: true }).first().waitFor()
        expect(await watch.page.evaluate(injected)).toEqual({ outline: 'none', attribute: false })
        // Refused: only what the spec brought (inline styles), nothing of the UI.
        expect(watch.violations.filter((v) => !/^style-src-(elem|attr) inline /.test(v))).toEqual(
          [],
        )
        expect(watch.outside).toEqual([])
        await watch.page.close()
      },
      30_000,
    )

    it('the control: without a CSP, the spec’s <style> and style="…" apply in Redoc', async () => {
      const watch = await watchedPage(context)
      await watch.page.goto(`${server.origin}/style/control`)
      await watch.page.getByText('before the style').filter({ visible: true }).first().waitFor()
      expect(await watch.page.evaluate(injected)).toEqual({ outline: 'solid', attribute: true })
      await watch.page.close()
    }, 30_000)

    it('the control: without a CSP, a javascript: link Redoc keeps from the spec runs', async () => {
      const watch = await watchedPage(context)
      await watch.page.goto(`${server.origin}/control`)
      await watch.page.getByText('Get </script>').filter({ visible: true }).first().waitFor()
      await watch.page.locator('a[href^="javascript:"]').first().click()
      await expect.poll(() => watch.page.evaluate('window.pwned')).toBe(1)
      await watch.page.close()
    }, 30_000)
  },
)
