import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Express } from 'express'
import type { Page } from 'playwright-core'
import type { DocsUi } from '../../src/openapi/index.js'

/** Listens on 127.0.0.1 at a random port. */
export async function listen(app: Express): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The three UIs, each with the element that shows an operation's summary once it has rendered. */
export const uis: ReadonlyArray<readonly [DocsUi, string]> = [
  ['swagger', '.opblock-summary-description'],
  ['scalar', 'a, span, div'],
  ['redoc', 'h2, label, span'],
]

/** Waits until the page shows the operation with this summary (visible, not only in the DOM). */
export async function waitForOperation(page: Page, ui: DocsUi, summary: string): Promise<void> {
  const selector = uis.find(([name]) => name === ui)![1]
  await page
    .locator(selector)
    .filter({ hasText: summary, visible: true })
    .first()
    .waitFor({ state: 'visible', timeout: 15_000 })
}
