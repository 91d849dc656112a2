import type { PageParts } from './docs-page.js'
import { unlessLoaded } from './load-failure.js'
import { pageTitle } from './swagger-page.js'

// Scalar's standalone bundle reads the spec URL from the config; everything that would call a
// host other than the page's own is off (fonts, telemetry, the agent chat, developer tools).
// The zod inside the bundle probes for eval() with Function(''), a CSP violation under a policy
// without 'unsafe-eval': its global config says not to (zod's interpreter is used instead).
const BOOTSTRAP = `
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
document.addEventListener("DOMContentLoaded", function () {
${unlessLoaded('Scalar')}var config = JSON.parse(document.getElementById("shapeguard-docs-config").textContent);
var options = config.ui.options;
options.url = config.specUrl;
Scalar.createApiReference("#app", options);
});
`

/** Scalar's page. */
export function scalarPage(spec: object, title: string | undefined): PageParts {
  return {
    ui: 'scalar',
    title: pageTitle(title, spec, 'API reference'),
    head: '',
    body: '<div id="app"></div>',
    config: {
      options: {
        withDefaultFonts: false,
        telemetry: false,
        agent: { disabled: true },
        mcp: { disabled: true },
        showDeveloperTools: 'never',
        persistAuth: true,
        hideClientButton: false,
      },
    },
    bootstrap: BOOTSTRAP,
  }
}
