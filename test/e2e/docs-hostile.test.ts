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
import { listen, uis } from './docs-support.js'

const available = chromiumAvailable()

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
