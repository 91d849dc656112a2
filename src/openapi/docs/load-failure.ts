import { CDN_ORIGIN, type DocsAssets, type DocsUi, majorOf, UI_PACKAGES } from './assets.js'
import { escapeHtml } from './escape.js'

// A page whose UI script did not load (CDN unreachable, blocked, local files not reaching the
// middleware) would stay blank, the browser console saying only "Scalar is not defined". The page
// carries a hidden notice instead, which the hashed bootstrap shows: no inline handler, nothing
// the strict CSP refuses. Its text is fixed when the middleware is made, never from a request.

const NOTICE_ID = 'shapeguard-docs-failed'

/** Where the page's UI files come from: the mode asked for, and whether the app serves them. */
export interface AssetChoice {
  readonly mode: DocsAssets
  readonly local: boolean
}

function reasons(ui: DocsUi, { mode, local }: AssetChoice): readonly [string, string] {
  const pkg = UI_PACKAGES[ui]
  const install = `npm install ${pkg.name}@${majorOf(pkg.version)}`
  const blocked =
    'or something blocked it (a Content-Security-Policy, a proxy, a browser extension)'
  if (local) {
    return [
      `${pkg.label}'s script, which this app serves under assets/ beside this page, did not load: ` +
        `the request did not reach the docs middleware, ${blocked}.`,
      'Let requests for assets/ below this page reach the docs middleware (a route or proxy in ' +
        "front of it may answer them), and let a Content-Security-Policy of your own allow 'self'.",
    ]
  }
  const why =
    `${pkg.label}'s script did not load from ${CDN_ORIGIN}: ` +
    `the CDN cannot be reached from this browser, ${blocked}.`
  return mode === 'cdn'
    ? [
        why,
        `Let this browser reach ${CDN_ORIGIN}, or serve the files from the app: run \`${install}\` ` +
          "where it runs and remove `assets: 'cdn'` from the docs options.",
      ]
    : [
        why,
        `Install the package where the app runs, and the page serves the files itself: ` +
          `\`${install}\`, then restart the app. Or let this browser reach ${CDN_ORIGIN}.`,
      ]
}

// `code` spans marked with backquotes in the reasons.
function paragraph(text: string): string {
  const html = escapeHtml(text).replace(/`([^`]*)`/g, '<code>$1</code>')
  return `<p>${html}</p>\n`
}

/** The page's notice, hidden until the bootstrap finds the UI missing. */
export function failureNotice(ui: DocsUi, choice: AssetChoice): string {
  const [why, fix] = reasons(ui, choice)
  return (
    `<div id="${NOTICE_ID}" role="alert" hidden>\n` +
    '<h1>The API documentation could not be loaded</h1>\n' +
    paragraph(why) +
    paragraph(fix) +
    '</div>\n<noscript><p>The API documentation needs JavaScript.</p></noscript>\n'
  )
}

/**
 * The first lines of a bootstrap's DOMContentLoaded handler (all scripts have run by then): when
 * the UI's global is missing, its script did not load, so show the notice and stop.
 */
export function unlessLoaded(global: string): string {
  return (
    `if (typeof ${global} === "undefined") {\n` +
    `  var failed = document.getElementById("${NOTICE_ID}");\n` +
    '  failed.style.cssText = "font: 16px/1.5 system-ui, sans-serif; max-width: 44em; margin: 3em auto; padding: 0 1em";\n' +
    '  failed.hidden = false;\n' +
    '  return;\n' +
    '}\n'
  )
}
