import type { CreateDocsOptions } from './create-docs-options.js'
import { httpOrigin } from './csp.js'
import type { PageParts } from './docs-page.js'
import { cssForStyle, escapeHtml } from './escape.js'
import { unlessLoaded } from './load-failure.js'
import { swaggerThemeCss } from './swagger-theme.js'

// Swagger UI options set from createDocs options; the rest are always on: try-it-out open,
// request duration shown, deep links, and no calls to Swagger's online validator.
const PASSED = [
  'docExpansion',
  'defaultModelsExpandDepth',
  'defaultModelExpandDepth',
  'showExtensions',
  'showCommonExtensions',
  'displayOperationId',
  'maxDisplayedTags',
  'withCredentials',
  'oauth2RedirectUrl',
] as const

function swaggerOptions(o: CreateDocsOptions): Record<string, unknown> {
  const options: Record<string, unknown> = {
    docExpansion: 'list',
    defaultModelsExpandDepth: 1,
    defaultModelExpandDepth: 1,
    filter: o.filter ?? true,
    persistAuthorization: o.persistAuthorization ?? true,
    displayRequestDuration: true,
    tryItOutEnabled: true,
    deepLinking: true,
    requestSnippetsEnabled: o.requestSnippets ?? false,
  }
  for (const key of PASSED) if (o[key] !== undefined) options[key] = o[key]
  if (o.operationsSorter !== undefined && o.operationsSorter !== 'none') {
    options.operationsSorter = o.operationsSorter
  }
  if (o.tagsSorter === 'alpha') options.tagsSorter = 'alpha'
  return options
}

// An interceptor body sits alone inside its own function; checkInterceptor() proved it parses
// as a function body and cannot close its script element.
function interceptor(body: string | undefined, name: string, param: string): string {
  if (body === undefined) return ''
  return (
    `var user${name} = function (${param}) {\n${body}\n};\n` +
    `options.${name.charAt(0).toLowerCase()}${name.slice(1)} = function (${param}) {\n` +
    `  var out = user${name}(${param});\n  return out === undefined ? ${param} : out;\n};\n`
  )
}

function bootstrap(o: CreateDocsOptions): string {
  return (
    '\ndocument.addEventListener("DOMContentLoaded", function () {\n' +
    unlessLoaded('SwaggerUIBundle') +
    'var config = JSON.parse(document.getElementById("shapeguard-docs-config").textContent);\n' +
    'var options = config.ui.options;\n' +
    'options.url = config.specUrl;\n' +
    'options.dom_id = "#swagger-ui";\n' +
    'options.presets = [SwaggerUIBundle.presets.apis];\n' +
    'options.layout = "BaseLayout";\n' +
    'options.validatorUrl = null;\n' +
    'if (!options.oauth2RedirectUrl) {\n' +
    '  options.oauth2RedirectUrl = new URL(config.base + "oauth2-redirect.html", location.href).href;\n' +
    '}\n' +
    interceptor(o.requestInterceptor, 'RequestInterceptor', 'request') +
    interceptor(o.responseInterceptor, 'ResponseInterceptor', 'response') +
    'window.ui = SwaggerUIBundle(options);\n' +
    '});\n'
  )
}

/** The title a page shows: the option, else the spec's `info.title`, else a fixed one. */
export function pageTitle(title: string | undefined, spec: object, fallback: string): string {
  if (title !== undefined) return title
  const fromSpec = (spec as { info?: { title?: unknown } }).info?.title
  return typeof fromSpec === 'string' ? fromSpec : fallback
}

/** Swagger UI's page from checked `createDocs` options. */
export function swaggerPage(o: CreateDocsOptions): PageParts {
  const logo = o.logo
  const css =
    'body{margin:0}.swagger-ui .info{margin:32px 0}' +
    '.shapeguard-docs-logo{padding:12px 20px}.shapeguard-docs-logo img{max-height:48px}' +
    (logo?.backgroundColor ? `.shapeguard-docs-logo{background:${logo.backgroundColor}}` : '') +
    swaggerThemeCss(o.theme ?? 'auto') +
    (o.customCss ?? '')
  const head =
    (o.favicon ? `<link rel="icon" href="${escapeHtml(o.favicon)}">\n` : '') +
    `<style>${cssForStyle(css)}</style>\n` +
    (o.headHtml ?? '')
  const logoHtml = logo
    ? `<header class="shapeguard-docs-logo"><img src="${escapeHtml(logo.url)}" alt="${escapeHtml(logo.altText ?? '')}"></header>\n`
    : ''
  return {
    ui: 'swagger',
    title: pageTitle(o.title, o.spec, 'API documentation'),
    head,
    body: `${logoHtml}<div id="swagger-ui"></div>`,
    config: { options: swaggerOptions(o) },
    bootstrap: bootstrap(o),
    oauth2Redirect: true,
    imageOrigins: [o.favicon, logo?.url]
      .map(httpOrigin)
      .filter((x): x is string => x !== undefined),
  }
}
