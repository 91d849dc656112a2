import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { cdnSource } from '../../../src/openapi/docs/assets.js'
import { serveDocs, serveRedoc, serveScalar, serveSwaggerUI } from '../../../src/openapi/index.js'
import { demoSpec } from '../../fixtures/docs-spec.js'
import { hosts } from '../../support/e2e.js'

function config(html: string): any {
  const json = /<script type="application\/json" id="shapeguard-docs-config">(.*?)<\/script>/.exec(
    html,
  )
  return JSON.parse(json![1]!)
}

describe.each(hosts)('serveDocs on %s', (_, express) => {
  it('serves Scalar by default, its spec at <mount>/openapi.json, under a sub-path mount', async () => {
    const app = express()
    app.use('/internal/docs', serveDocs(demoSpec()))
    const page = await request(app).get('/internal/docs')
    expect(page.text).toContain('Scalar.createApiReference')
    expect(page.text).toMatch(/<script src="\.\/docs\/assets\/[^"]+\/standalone\.js"/)
    expect(config(page.text).specUrl).toBe('./docs/openapi.json')
    expect(
      config(
        await request(app)
          .get('/internal/docs/')
          .then((r) => r.text),
      ).specUrl,
    ).toBe('./openapi.json')
    const spec = await request(app).get('/internal/docs/openapi.json')
    expect(spec.body.info.title).toBe('shapeguard demo API')
  })

  it('serves exports.json at the path clients request, or below the mount', async () => {
    const app = express()
    app.use('/docs', serveDocs(demoSpec(), { ui: 'redoc', exports: { json: '/docs/spec.json' } }))
    app.use('/v2/docs', serveDocs(demoSpec(), { ui: 'swagger', exports: { json: '/api.json' } }))
    expect((await request(app).get('/docs/spec.json')).body.openapi).toBe('3.1.0')
    expect((await request(app).get('/docs/openapi.json')).status).toBe(404)
    expect(config((await request(app).get('/docs')).text).specUrl).toBe('./docs/spec.json')
    expect((await request(app).get('/v2/docs/api.json')).body.openapi).toBe('3.1.0')
    expect(config((await request(app).get('/v2/docs/')).text).specUrl).toBe('./api.json')
  })

  it('serves the client exports at their paths, the same file on every start', async () => {
    const exports = {
      json: '/docs/openapi.json',
      postman: '/docs/postman.json',
      insomnia: '/insomnia.json',
      bruno: '/docs/bruno.json',
    }
    const app = express()
    app.use('/docs', serveDocs(demoSpec(), { ui: 'swagger', exports }))
    const again = express()
    again.use('/docs', serveDocs(demoSpec(), { ui: 'swagger', exports }))
    const postman = await request(app).get('/docs/postman.json')
    expect(postman.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(postman.headers['x-content-type-options']).toBe('nosniff')
    expect(postman.body.info.schema).toBe(
      'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    )
    expect(postman.body.info.name).toBe('shapeguard demo API')
    const insomnia = await request(app).get('/docs/insomnia.json')
    expect(insomnia.body.__export_format).toBe(4)
    const bruno = await request(app).get('/docs/bruno.json')
    expect(bruno.body.name).toBe('shapeguard demo API')
    for (const path of ['/docs/postman.json', '/docs/insomnia.json', '/docs/bruno.json']) {
      expect((await request(again).get(path)).text).toBe((await request(app).get(path)).text)
    }
  })

  it('answers a repeated spec request with 304 and HEAD without a body', async () => {
    const app = express()
    app.use('/docs', serveDocs(demoSpec()))
    const first = await request(app).get('/docs/openapi.json')
    const again = await request(app)
      .get('/docs/openapi.json')
      .set('If-None-Match', String(first.headers.etag))
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    const head = await request(app).head('/docs/openapi.json')
    expect(head.status).toBe(200)
    expect(head.headers['content-length']).toBe(first.headers['content-length'])
  })

  it.each(['swagger', 'scalar', 'redoc'] as const)(
    "%s by default: the installed package's files, served here under a CSP of 'self'; 'cdn' keeps the CDN",
    async (ui) => {
      const app = express()
      app.use('/docs', serveDocs(demoSpec(), { ui }))
      app.use('/cdn', serveDocs(demoSpec(), { ui, assets: 'cdn' }))
      const page = await request(app).get('/docs/')
      expect(page.headers['content-security-policy']).toMatch(
        /^default-src 'none'; script-src 'self' 'sha256-[^']+'; style-src 'self' 'unsafe-inline'/,
      )
      expect(page.text).not.toContain('cdn.jsdelivr.net')
      const src = /<script src="\.\/(assets\/[^"]+)"/.exec(page.text)![1]!
      expect((await request(app).get(`/docs/${src}`)).status).toBe(200)
      const cdn = await request(app).get('/cdn/')
      expect(cdn.headers['content-security-policy']).toContain(
        `script-src ${cdnSource(ui)} 'sha256-`,
      )
      expect(cdn.text).toContain(`<script src="${cdnSource(ui)}`)
      expect(cdn.text).not.toContain('./assets/')
    },
  )

  it.each(['swagger', 'scalar', 'redoc'] as const)(
    "serves %s's files locally with long-lived caching, an ETag and a CSP of 'self'",
    async (ui) => {
      const app = express()
      app.use('/docs', serveDocs(demoSpec(), { ui, assets: 'local' }))
      const page = await request(app).get('/docs/')
      expect(page.headers['content-security-policy']).toMatch(
        /^default-src 'none'; script-src 'self' 'sha256-/,
      )
      expect(page.text).not.toContain('cdn.jsdelivr.net')
      const srcs = [...page.text.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1]!)
      expect(srcs.length).toBeGreaterThan(0)
      for (const src of srcs) {
        const file = await request(app).get(`/docs/${src}`)
        expect(file.status).toBe(200)
        expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable')
        expect(file.headers['x-content-type-options']).toBe('nosniff')
        expect(file.headers['content-type']).toMatch(/^text\/(javascript|css); charset=utf-8$/)
        const cached = await request(app)
          .get(`/docs/${src}`)
          .set('If-None-Match', String(file.headers.etag))
        expect(cached.status).toBe(304)
      }
    },
  )

  it('hides in the page a notice of why the UI did not load and what to do, the same for any request', async () => {
    const app = express()
    app.use('/cdn', serveDocs(demoSpec(), { ui: 'redoc', assets: 'cdn' }))
    app.use('/local', serveDocs(demoSpec(), { ui: 'swagger' }))
    const notice = (html: string) =>
      /<div id="shapeguard-docs-failed" role="alert" hidden>[\s\S]*?<\/div>/.exec(html)?.[0]
    const cdn = await request(app).get('/cdn/?"><h1>injected</h1>')
    expect(notice(cdn.text)).toContain(
      'Redoc&#39;s script did not load from https://cdn.jsdelivr.net',
    )
    expect(notice(cdn.text)).toContain('<code>npm install redoc@2</code>')
    expect(notice(cdn.text)).toBe(notice((await request(app).get('/cdn')).text))
    expect(notice(cdn.text)).not.toContain('injected')
    // The bootstrap shows it when the UI's global is missing, before it would call it.
    expect(cdn.text).toMatch(/if \(typeof Redoc === "undefined"\)[\s\S]*Redoc\.init\(/)
    const local = await request(app).get('/local/')
    expect(notice(local.text)).toContain('which this app serves under assets/ beside this page')
    expect(local.text).toContain('if (typeof SwaggerUIBundle === "undefined")')
  })

  it('takes the page URL from the request without letting it into the markup', async () => {
    const app = express()
    app.use('/', serveDocs(demoSpec(), { ui: 'swagger', assets: 'local' }))
    app.use('/x', serveDocs(demoSpec(), { ui: 'swagger', assets: 'local' }))
    const res = await request(app).get('/x?"><script>alert(1)</script>')
    expect(res.text).not.toContain('<script>alert')
    expect(config(res.text).specUrl).toBe('./x/openapi.json')
    expect(config((await request(app).get('/')).text).specUrl).toBe('./openapi.json')
  })
})

describe('serveSwaggerUI, serveScalar, serveRedoc', () => {
  it('serveSwaggerUI: theme, snippets and persist reach the page', async () => {
    const express = hosts[1][1]
    const app = express()
    app.use('/a', serveSwaggerUI(demoSpec(), { theme: 'dark', snippets: false, persist: false }))
    app.use('/b', serveSwaggerUI(demoSpec()))
    const a = await request(app).get('/a')
    expect(config(a.text).ui.options).toMatchObject({
      requestSnippetsEnabled: false,
      persistAuthorization: false,
    })
    expect(a.text).toContain('body,.swagger-ui{background:#0f1318')
    const b = await request(app).get('/b')
    expect(config(b.text).ui.options).toMatchObject({
      requestSnippetsEnabled: true,
      persistAuthorization: true,
    })
    expect(b.text).toContain('@media (prefers-color-scheme: dark)')
  })

  it('serveScalar turns off everything that calls another host; serveRedoc sanitises', async () => {
    const express = hosts[0][1]
    const app = express()
    app.use('/s', serveScalar(demoSpec(), { title: 'S' }))
    app.use('/r', serveRedoc(demoSpec()))
    const s = await request(app).get('/s')
    expect(config(s.text).ui.options).toMatchObject({
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
    })
    expect(s.text).toContain('<title>S</title>')
    expect(config((await request(app).get('/r')).text).ui.options.sanitize).toBe(true)
  })

  it('serveRedoc admits only style elements with a fresh per-page nonce (a spec’s <style> applies nowhere)', async () => {
    const express = hosts[0][1]
    const app = express()
    app.use('/r', serveRedoc(demoSpec()))
    app.use('/own', serveRedoc(demoSpec(), { csp: "default-src 'self'" }))
    app.use('/s', serveScalar(demoSpec()))
    const [one, two] = [await request(app).get('/r'), await request(app).get('/r')]
    const nonces = [one, two].map((page) => {
      const nonce = config(page.text).nonce as string
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
      expect(page.headers['content-security-policy']).toContain(
        `; style-src-elem 'self' 'nonce-${nonce}'; style-src-attr 'none'`,
      )
      return nonce
    })
    expect(nonces[0]).not.toBe(nonces[1])
    expect(one.text).not.toContain('<style')
    // The integrator's own policy, and the UIs that clean styles themselves: no nonce.
    const own = await request(app).get('/own')
    expect(own.headers['content-security-policy']).toBe("default-src 'self'")
    expect(config(own.text)).not.toHaveProperty('nonce')
    const scalar = await request(app).get('/s')
    expect(config(scalar.text)).not.toHaveProperty('nonce')
    expect(scalar.headers['content-security-policy']).not.toContain('style-src-elem')
  })

  it.each([
    [
      "ui: must be one of 'scalar', 'swagger', 'redoc'",
      () => serveDocs(demoSpec(), { ui: 'x' as any }),
    ],
    [
      'serveDocs(): exports.openapi is not an option (json, postman, insomnia, bruno)',
      () => serveDocs(demoSpec(), { exports: { openapi: '/p.json' } as any }),
    ],
    // A misspelt or misplaced option is named, with the valid ones (not ignored).
    [
      'serveDocs(): theme is not an option (assets, title, csp, ui, exports)',
      () => serveDocs(demoSpec(), { theme: 'dark' } as any),
    ],
    [
      'serveScalar(): asset is not an option (assets, title, csp)',
      () => serveScalar(demoSpec(), { asset: 'local' } as any),
    ],
    [
      'serveRedoc(): snippets is not an option (assets, title, csp)',
      () => serveRedoc(demoSpec(), { snippets: true } as any),
    ],
    [
      'serveSwaggerUI(): persistAuthorization is not an option (assets, title, csp, theme, snippets, persist)',
      () => serveSwaggerUI(demoSpec(), { persistAuthorization: false } as any),
    ],
    ['exports.bruno: must be a URL path', () => serveDocs(demoSpec(), { exports: { bruno: 'x' } })],
    [
      'exports.json: must be a URL path',
      () => serveDocs(demoSpec(), { exports: { json: 'spec.json' } }),
    ],
    [
      'exports.json: must be a URL path',
      () => serveDocs(demoSpec(), { exports: { json: '/a/../b' } }),
    ],
    [
      "theme: must be one of 'light', 'dark', 'auto'",
      () => serveSwaggerUI(demoSpec(), { theme: 'x' as any }),
    ],
    ['persist: must be a boolean', () => serveSwaggerUI(demoSpec(), { persist: 1 as any })],
    ['spec: must be an OpenAPI 3.x document', () => serveScalar({} as any)],
    ['serveRedoc(): options must be an object', () => serveRedoc(demoSpec(), 'x' as any)],
  ])('throws a TypeError when created: %s', (message, create) => {
    expect(create).toThrow(TypeError)
    expect(create).toThrow(message)
  })
})
