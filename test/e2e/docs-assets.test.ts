import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cdnSource, UI_PACKAGES } from '../../src/openapi/docs/assets.js'
import { serveDocs } from '../../src/openapi/index.js'
import { demoSpec } from '../fixtures/docs-spec.js'
import {
  chromiumAvailable,
  chromiumSkipReason,
  launchChromium,
  type PageWatch,
  type TestBrowser,
  watchedPage,
} from '../support/chromium.js'
import { listen, uis } from '../support/docs-pages.js'
import { hosts } from '../support/e2e.js'

// Every page here has no CDN: watchedPage aborts each request that leaves 127.0.0.1, as on a
// host without internet access or behind a firewall. That the default renders from the installed
// package with no request leaving the machine is proven in docs-browser.test.ts.
const available = chromiumAvailable()
const cases = hosts.flatMap(([host]) => uis.map(([ui]) => [host, ui] as const))

const HEADING = 'The API documentation could not be loaded'
const BLOCKED = 'or something blocked it (a Content-Security-Policy, a proxy, a browser extension).'

/** The notice's text, as the reader sees it. */
async function shownNotice(watch: PageWatch): Promise<string> {
  const notice = watch.page.locator('#shapeguard-docs-failed')
  await notice.waitFor({ state: 'visible', timeout: 10_000 })
  // biome-ignore lint/performance/useDomNodeTextContent: the text as laid out is the point
  return notice.innerText()
}

/** What went wrong in the page, beyond the files that could not be fetched. */
function unexpected(watch: PageWatch): string[] {
  return [
    ...watch.violations.map((v) => `csp: ${v}`),
    ...watch.consoleErrors.filter((e) => !e.startsWith('Failed to load resource')),
  ]
}

describe.skipIf(!available)(
  available
    ? 'docs page assets with the CDN unreachable, in chromium'
    : `docs page assets with the CDN unreachable, in chromium (${chromiumSkipReason})`,
  () => {
    let browser: TestBrowser
    let context: BrowserContext
    const servers = new Map<string, Awaited<ReturnType<typeof listen>>>()

    beforeAll(async () => {
      for (const [host, express] of hosts) {
        const app = express()
        for (const [ui] of uis) {
          app.use(`/cdn/${ui}`, serveDocs(demoSpec(), { ui, assets: 'cdn' }))
          // A route in front of the docs that answers their files itself (404).
          app.use(`/gone/${ui}/assets`, (_req, res) => {
            res.status(404).end()
          })
          app.use(`/gone/${ui}`, serveDocs(demoSpec(), { ui }))
        }
        servers.set(host, await listen(app))
      }
      browser = await launchChromium()
      context = await browser.browser.newContext({ viewport: { width: 1000, height: 620 } })
    }, 60_000)

    afterAll(async () => {
      await browser?.close()
      for (const server of servers.values()) await server.close()
    })

    it.each(cases)(
      "%s, %s with assets: 'cdn': says the script did not load and what to do, not a blank page",
      async (host, ui) => {
        const pkg = UI_PACKAGES[ui]
        const watch = await watchedPage(context)
        await watch.page.goto(`${servers.get(host)!.origin}/cdn/${ui}/`)
        expect(await shownNotice(watch)).toBe(
          `${HEADING}\n\n` +
            `${pkg.label}'s script did not load from https://cdn.jsdelivr.net: the CDN cannot be reached from this browser, ${BLOCKED}\n\n` +
            'Let this browser reach https://cdn.jsdelivr.net, or serve the files from the app: run ' +
            `npm install ${pkg.name}@${pkg.version.split('.')[0]} where it runs and remove ` +
            "assets: 'cdn' from the docs options.",
        )
        expect(watch.outside).toEqual(pkg.files.map((f) => `${cdnSource(ui)}${f.path}`))
        expect(unexpected(watch)).toEqual([])
        await watch.page.close()
      },
      30_000,
    )

    it.each(cases)(
      '%s, %s with its files not reaching the middleware: says so',
      async (host, ui) => {
        const watch = await watchedPage(context)
        await watch.page.goto(`${servers.get(host)!.origin}/gone/${ui}/`)
        expect(await shownNotice(watch)).toBe(
          `${HEADING}\n\n` +
            `${UI_PACKAGES[ui].label}'s script, which this app serves under assets/ beside this page, did not load: the request did not reach the docs middleware, ${BLOCKED}\n\n` +
            'Let requests for assets/ below this page reach the docs middleware (a route or proxy in ' +
            "front of it may answer them), and let a Content-Security-Policy of your own allow 'self'.",
        )
        expect(watch.outside).toEqual([])
        expect(unexpected(watch)).toEqual([])
        await watch.page.close()
      },
      30_000,
    )
  },
)
