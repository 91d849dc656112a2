import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { chromium } from 'playwright-core'

const executablePath = '/usr/bin/chromium'

/** Whether this machine has Debian's chromium; under SHAPEGUARD_STRICT=1 (CI) its absence fails. */
export function chromiumAvailable(): boolean {
  if (existsSync(executablePath)) return true
  if (process.env.SHAPEGUARD_STRICT === '1') {
    throw new Error(
      `SHAPEGUARD_STRICT=1 but ${executablePath} is not installed (apt-get install chromium)`,
    )
  }
  return false
}

/** The reason shown in the name of a suite skipped for want of chromium. */
export const chromiumSkipReason = `skipped: ${executablePath} is not installed (apt-get install chromium)`

/** A headless chromium. */
export interface TestBrowser {
  readonly browser: Browser
  close(): Promise<void>
}

// launch() gives every browser a fresh temporary profile of its own (a --user-data-dir argument
// is refused), so no state leaks between test files.
export async function launchChromium(): Promise<TestBrowser> {
  const browser = await chromium.launch({
    executablePath,
    timeout: 30_000,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  return {
    browser,
    async close() {
      await browser.close()
    },
  }
}

const root = resolve(import.meta.dirname, '../..')

/** What a page did that a test may forbid: CSP violations, console errors, blocked requests. */
export interface PageWatch {
  readonly page: Page
  readonly violations: string[]
  readonly consoleErrors: string[]
  /** Requests to anything but 127.0.0.1 (aborted, or answered from node_modules for the CDN). */
  readonly outside: string[]
}

/**
 * A page whose network is 127.0.0.1 only: any other request is aborted and recorded, except CDN
 * requests (`https://cdn.jsdelivr.net/npm/<pkg>@<version>/<file>`) when `cdnFromPackages` is set,
 * answered with the installed package's file (there is no network; SRI still checks the bytes).
 */
export async function watchedPage(
  context: BrowserContext,
  { cdnFromPackages = false } = {},
): Promise<PageWatch> {
  const page = await context.newPage()
  const watch: PageWatch = { page, violations: [], consoleErrors: [], outside: [] }
  await page.exposeFunction('__shapeguardViolation', (text: string) => {
    watch.violations.push(text)
  })
  // Runs in the page before its own scripts (the tsconfig has no DOM types, hence a string).
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (e) => {
      window.__shapeguardViolation(
        e.violatedDirective + ' ' + e.blockedURI + ' at ' + e.sourceFile + ':' + e.lineNumber,
      )
    })`,
  })
  page.on('console', (message) => {
    if (message.type() === 'error') watch.consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => watch.consoleErrors.push(`pageerror: ${error.message}`))
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url())
    if (url.hostname === '127.0.0.1') return route.continue()
    const cdn = /^\/npm\/((?:@[^/]+\/)?[^/@]+)@[^/]+\/(.+)$/.exec(url.pathname)
    if (cdnFromPackages && url.origin === 'https://cdn.jsdelivr.net' && cdn) {
      watch.outside.push(`cdn ${url.href}`)
      const body = readFileSync(join(root, 'node_modules', cdn[1]!, cdn[2]!))
      return route.fulfill({
        status: 200,
        body,
        headers: {
          'content-type': url.pathname.endsWith('.css') ? 'text/css' : 'text/javascript',
          'access-control-allow-origin': '*',
        },
      })
    }
    watch.outside.push(url.href)
    return route.abort('blockedbyclient')
  })
  return watch
}

/** The CSP violations and console errors a page reported, minus what a test expects. */
export function problems(watch: PageWatch): string[] {
  return [...watch.violations.map((v) => `csp: ${v}`), ...watch.consoleErrors]
}
