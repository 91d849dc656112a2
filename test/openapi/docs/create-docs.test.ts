import { createHash } from 'node:crypto'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createDocs } from '../../../src/openapi/index.js'
import { demoSpec, hostileSpec } from '../../fixtures/docs-spec.js'
import { hosts } from '../../support/e2e.js'

/** The page's inline scripts: [executable, config JSON]. */
function inlineScripts(html: string): { bootstrap: string[]; json: string[] } {
  const bootstrap: string[] = []
  const json: string[] = []
  for (const m of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (m[1]!.includes('src=')) continue
    if (m[1]!.includes('application/json')) json.push(m[2]!)
    else bootstrap.push(m[2]!)
  }
  return { bootstrap, json }
}

function config(html: string): any {
  return JSON.parse(inlineScripts(html).json[0]!)
}

describe.each(hosts)('createDocs on %s', (_, express) => {
  function app(options: Partial<Parameters<typeof createDocs>[0]> = {}) {
    const a = express()
    a.use('/docs', createDocs({ spec: demoSpec(), ...options }))
    a.use((_req, res) => {
      res.status(404).json({ fallthrough: true })
    })
    return a
  }

  it('sends the page with the security headers and a CSP whose hash is the inline bootstrap', async () => {
    const res = await request(app({ assets: 'cdn' })).get('/docs')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['x-frame-options']).toBe('DENY')
    expect(res.headers['referrer-policy']).toBe('no-referrer')
    expect(res.text).toContain('<meta name="referrer" content="no-referrer">')
    const { bootstrap } = inlineScripts(res.text)
    expect(bootstrap).toHaveLength(1)
    const hash = createHash('sha256').update(bootstrap[0]!).digest('base64')
    const csp = res.headers['content-security-policy']
    expect(csp).toContain(
      `script-src https://cdn.jsdelivr.net/npm/swagger-ui-dist@5.17.14/ 'sha256-${hash}'`,
    )
    expect(csp).not.toMatch(/script-src[^;]*unsafe/)
    expect(res.text).toMatch(
      /<script src="https:\/\/cdn\.jsdelivr\.net\/npm\/swagger-ui-dist@5\.17\.\d+\/swagger-ui-bundle\.js" integrity="sha384-[^"]+" crossorigin="anonymous">/,
    )
  })

  it('serves the spec as JSON beside the page, never inside it', async () => {
    const spec = hostileSpec()
    const a = express()
    a.use('/docs', createDocs({ spec }))
    const page = await request(a).get('/docs/')
    expect(page.text).not.toContain('<script>window.pwned')
    expect(page.text).not.toContain('onerror')
    expect(config(page.text).specUrl).toBe('./openapi.json')
    const json = await request(a).get('/docs/openapi.json')
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(json.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    )
    expect(json.headers['x-content-type-options']).toBe('nosniff')
    expect(JSON.parse(json.text)).toEqual(JSON.parse(JSON.stringify(spec)))
  })

  it('passes every Swagger UI option of createDocs on and keeps the always-on ones', async () => {
    const res = await request(
      app({
        docExpansion: 'full',
        defaultModelsExpandDepth: -1,
        defaultModelExpandDepth: 3,
        operationsSorter: 'alpha',
        tagsSorter: 'alpha',
        showExtensions: true,
        showCommonExtensions: true,
        displayOperationId: true,
        maxDisplayedTags: 5,
        withCredentials: true,
        oauth2RedirectUrl: 'https://example.com/oauth2-redirect.html',
      }),
    ).get('/docs')
    expect(config(res.text).ui.options).toEqual({
      docExpansion: 'full',
      defaultModelsExpandDepth: -1,
      defaultModelExpandDepth: 3,
      filter: true,
      persistAuthorization: true,
      displayRequestDuration: true,
      tryItOutEnabled: true,
      deepLinking: true,
      requestSnippetsEnabled: false,
      operationsSorter: 'alpha',
      tagsSorter: 'alpha',
      showExtensions: true,
      showCommonExtensions: true,
      displayOperationId: true,
      maxDisplayedTags: 5,
      withCredentials: true,
      oauth2RedirectUrl: 'https://example.com/oauth2-redirect.html',
    })
    expect(inlineScripts(res.text).bootstrap[0]).toContain('options.validatorUrl = null')
  })

  it('escapes the title, logo and favicon, and keeps custom CSS inside its style element', async () => {
    const res = await request(
      app({
        title: '</title><script>window.pwned=1</script>',
        favicon: 'https://example.com/"><script>x</script>',
        logo: {
          url: '/logo.png',
          altText: '"><img src=x onerror=alert(1)>',
          backgroundColor: '#123',
        },
        customCss: 'body{}</style><script>window.pwned=1</script>',
      }),
    ).get('/docs')
    expect(res.text).not.toContain('<script>window.pwned')
    expect(res.text).not.toContain('<img src=x')
    expect(res.text).toContain(
      '<title>&lt;/title&gt;&lt;script&gt;window.pwned=1&lt;/script&gt;</title>',
    )
    expect(res.headers['content-security-policy']).toContain(
      "img-src 'self' data: https://example.com",
    )
  })

  it('places the interceptors in their own functions', async () => {
    const res = await request(
      app({
        requestInterceptor: 'request.headers.a = "1"',
        responseInterceptor: 'return response',
      }),
    ).get('/docs')
    const [bootstrap] = inlineScripts(res.text).bootstrap
    expect(bootstrap).toContain(
      'var userRequestInterceptor = function (request) {\nrequest.headers.a = "1"\n};',
    )
    expect(bootstrap).toContain(
      'var userResponseInterceptor = function (response) {\nreturn response\n};',
    )
  })

  it('sends no CSP with csp: false, and a policy of your own as given; headHtml goes before </head>', async () => {
    const none = await request(app({ csp: false, headHtml: '<meta name="x" content="y">' })).get(
      '/docs',
    )
    expect(none.headers['content-security-policy']).toBeUndefined()
    expect(none.headers['x-frame-options']).toBe('DENY')
    expect(none.text).toContain('<meta name="x" content="y"></head>')
    const own = await request(app({ csp: "default-src 'self'" })).get('/docs')
    expect(own.headers['content-security-policy']).toBe("default-src 'self'")
  })

  it("serves Swagger UI's OAuth2 redirect page beside it, its one script allowed by hash", async () => {
    const a = app()
    const page = await request(a).get('/docs')
    expect(inlineScripts(page.text).bootstrap[0]).toContain('"oauth2-redirect.html"')
    const res = await request(a).get('/docs/oauth2-redirect.html')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['referrer-policy']).toBe('no-referrer')
    const [script] = inlineScripts(res.text).bootstrap
    const hash = createHash('sha256').update(script!).digest('base64')
    expect(res.headers['content-security-policy']).toBe(
      `default-src 'none'; script-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    )
  })

  it('leaves other methods and paths to the app', async () => {
    const a = app()
    expect((await request(a).post('/docs')).body).toEqual({ fallthrough: true })
    expect((await request(a).get('/docs/nothing')).body).toEqual({ fallthrough: true })
    expect((await request(a).get('/docs/assets/x/swagger-ui-bundle.js')).status).toBe(404)
  })
})

describe('createDocs options', () => {
  const spec = demoSpec()
  it.each([
    ['spec: must be an OpenAPI document object', { spec: undefined }],
    ['spec: must be an OpenAPI 3.x document', { spec: { swagger: '2.0' } }],
    ['spec: must be serialisable as JSON', { spec: { openapi: '3.1.0', n: 1n } }],
    ["theme: must be one of 'light', 'dark', 'auto'", { spec, theme: 'pink' }],
    ['docExpansion: must be one of', { spec, docExpansion: 'all' }],
    ['defaultModelsExpandDepth: must be an integer >= -1', { spec, defaultModelsExpandDepth: -2 }],
    ['filter: must be a boolean', { spec, filter: 'yes' }],
    ['favicon: must be an http(s) URL', { spec, favicon: 'javascript:alert(1)' }],
    ['favicon: must be an http(s) URL', { spec, favicon: 'java\tscript:alert(1)' }],
    ['logo.url: must be an http(s) URL', { spec, logo: { url: 'data:text/html,x' } }],
    ['logo.backgroundColor', { spec, logo: { url: '/l.png', backgroundColor: 'red;}body{x:y' } }],
    ['requestInterceptor: must be JavaScript without', { spec, requestInterceptor: '<!-- x' }],
    ["assets: must be one of 'auto', 'cdn', 'local'", { spec, assets: 'unpkg' }],
    ['logo.url: must be an http(s) URL', { spec, logo: { url: 'data:text/html,x' } }],
    [
      'requestInterceptor: must be the body of a function',
      { spec, requestInterceptor: '}); window.x = 1; (function () {' },
    ],
    [
      'responseInterceptor: must be JavaScript without',
      { spec, responseInterceptor: 'return "</script><script>x()"' },
    ],
    [
      'csp: must be a Content-Security-Policy of one line',
      { spec, csp: "default-src 'self'\r\nX-Evil: 1" },
    ],
    // A misspelt option is named, with the valid ones (not ignored).
    [
      'createDocs(): docExpension is not an option (spec, title, theme, favicon, logo, customCss, docExpansion,',
      { spec, docExpension: 'none' },
    ],
    ['createDocs(): ui is not an option', { spec, ui: 'redoc' }],
    [
      'createDocs(): logo.alt is not an option (url, altText, backgroundColor)',
      { spec, logo: { url: '/l.png', alt: 'x' } },
    ],
  ] as Array<[string, object]>)('throws a TypeError: %s', (message, options) => {
    expect(() => createDocs(options as any)).toThrow(TypeError)
    expect(() => createDocs(options as any)).toThrow(message)
  })
})
