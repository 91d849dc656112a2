import { cdnUrl, type DocsUi, UI_PACKAGES } from './assets.js'
import { escapeHtml, jsonForScript } from './escape.js'
import type { LocalAsset } from './local-assets.js'

/** What one UI puts in its page; everything but the spec's URL is fixed when the page is made. */
export interface PageParts {
  readonly ui: DocsUi
  readonly title: string
  /** Trusted markup for `<head>` after the UI's styles (favicon, styles, `headHtml`). */
  readonly head: string
  /** The element the UI renders into. */
  readonly body: string
  /** Data for the bootstrap, read from a JSON script element (never executed). */
  readonly config: Readonly<Record<string, unknown>>
  /**
   * The inline bootstrap, run before the UI's scripts (so it can set globals they read) and
   * starting the UI on DOMContentLoaded; the CSP allows exactly this text by its hash.
   */
  readonly bootstrap: string
  /** Swagger UI's OAuth2 redirect page is served beside it. */
  readonly oauth2Redirect?: boolean
  /**
   * The bootstrap puts the page's nonce (`config.nonce`) on every style element a script makes,
   * so the automatic CSP admits only those: a `<style>` (or `style="…"`) the spec's Markdown
   * brings is refused. For a UI whose own cleaning keeps them (Redoc).
   */
  readonly styleNonce?: boolean
  /** Origins of the images the page links (favicon, logo), which the automatic CSP allows. */
  readonly imageOrigins?: readonly string[]
}

/** One asset as the page links it. */
interface LinkedAsset {
  readonly kind: 'script' | 'style'
  /** Absolute (CDN) or below the mount (local). */
  readonly href: string
  readonly local: boolean
  readonly integrity: string
}

/** The asset links for a UI: the files the app serves, or without them the CDN's. */
export function linkAssets(
  ui: DocsUi,
  local: readonly LocalAsset[] | undefined,
): readonly LinkedAsset[] {
  if (local !== undefined) {
    return local.map((a) => ({
      kind: a.file.kind,
      href: a.urlPath,
      local: true,
      integrity: a.integrity,
    }))
  }
  const pkg = UI_PACKAGES[ui]
  return pkg.files.map((file) => ({
    kind: file.kind,
    href: cdnUrl(pkg, file),
    local: false,
    integrity: file.integrity,
  }))
}

/** The page, split around the parts that depend on the request (its URL, a style nonce). */
export interface PageTemplate {
  render(prefix: string, specUrl: string, nonce?: string): string
}

function tag(asset: LinkedAsset, prefix: string): string {
  const href = escapeHtml(asset.local ? prefix + asset.href : asset.href)
  const sri = `integrity="${asset.integrity}" crossorigin="anonymous"`
  return asset.kind === 'style'
    ? `<link rel="stylesheet" href="${href}" ${sri}>`
    : `<script src="${href}" ${sri}></script>`
}

/** Builds the template once per middleware; `notice` is shown when the UI's script did not load. */
export function pageTemplate(
  parts: PageParts,
  assets: readonly LinkedAsset[],
  notice: string,
): PageTemplate {
  const styles = assets.filter((a) => a.kind === 'style')
  const scripts = assets.filter((a) => a.kind === 'script')
  const top =
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    '<meta name="referrer" content="no-referrer">\n' +
    `<title>${escapeHtml(parts.title)}</title>\n`
  const headEnd = `${parts.head}</head>\n<body>\n${parts.body}\n${notice}`
  const configJson = jsonForScript(parts.config)
  const bootstrap = `<script>${parts.bootstrap}</script>\n`
  return {
    render(prefix, specUrl, nonce) {
      const nonceJson = nonce === undefined ? '' : `"nonce":${jsonForScript(nonce)},`
      const config =
        '<script type="application/json" id="shapeguard-docs-config">' +
        `{"specUrl":${jsonForScript(specUrl)},"base":${jsonForScript(prefix)},${nonceJson}"ui":${configJson}}</script>\n`
      return (
        top +
        styles.map((a) => `${tag(a, prefix)}\n`).join('') +
        headEnd +
        config +
        bootstrap +
        scripts.map((a) => `${tag(a, prefix)}\n`).join('') +
        '</body>\n</html>\n'
      )
    },
  }
}
