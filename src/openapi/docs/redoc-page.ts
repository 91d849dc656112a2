import type { PageParts } from './docs-page.js'
import { pageTitle } from './swagger-page.js'

const BOOTSTRAP = `
(function () {
var config = JSON.parse(document.getElementById("shapeguard-docs-config").textContent);
Redoc.init(config.specUrl, config.ui.options, document.getElementById("redoc"));
})();
`

/** Redoc's page (Redoc 2's standalone bundle, a classic script). */
export function redocPage(spec: object, title: string | undefined): PageParts {
  return {
    ui: 'redoc',
    title: pageTitle(title, spec, 'API reference'),
    head: '<style>body{margin:0}</style>\n',
    body: '<div id="redoc"></div>',
    config: { options: { expandResponses: '200,201', jsonSampleExpandLevel: 2 } },
    bootstrap: BOOTSTRAP,
  }
}
