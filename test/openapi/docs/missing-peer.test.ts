import type * as fs from 'node:fs'
import request from 'supertest'
import { describe, expect, it, vi } from 'vitest'
import { cdnSource } from '../../../src/openapi/docs/assets.js'
import { createDocs, serveDocs, serveSwaggerUI } from '../../../src/openapi/index.js'
import { demoSpec } from '../../fixtures/docs-spec.js'
import { hosts } from '../../support/e2e.js'

// This machine has every UI package installed (dev dependencies): the file system is told to
// hide two of them, as on a host that never installed them, and to report the third (Scalar) as
// a major version shapeguard does not pin.
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof fs>()
  const hidden = (path: fs.PathLike) =>
    /[\\/](swagger-ui-dist|redoc)[\\/]package\.json$/.test(String(path))
  const scalarManifest = /[\\/]@scalar[\\/]api-reference[\\/]package\.json$/
  return {
    ...real,
    existsSync: (path: fs.PathLike) => !hidden(path) && real.existsSync(path),
    readFileSync: ((path: fs.PathOrFileDescriptor, ...rest: never[]) =>
      scalarManifest.test(String(path))
        ? JSON.stringify({ name: '@scalar/api-reference', version: '2.0.0' })
        : real.readFileSync(path, ...rest)) as typeof real.readFileSync,
  }
})

describe('a UI package that is not installed', () => {
  it('is an error naming the package when local assets are asked for', () => {
    expect(() => serveSwaggerUI(demoSpec(), { assets: 'local' })).toThrow(
      'shapeguard: Swagger UI with local assets: serves its files from the optional package "swagger-ui-dist", which is not installed, install it with: npm install swagger-ui-dist@5',
    )
    expect(() => createDocs({ spec: demoSpec(), assets: 'local' })).toThrow('"swagger-ui-dist"')
    expect(() => serveDocs(demoSpec(), { ui: 'redoc', assets: 'local' })).toThrow(
      'npm install redoc@2',
    )
  })

  it('is not needed from the CDN', () => {
    expect(() => serveSwaggerUI(demoSpec(), { assets: 'cdn' })).not.toThrow()
    expect(() => serveDocs(demoSpec(), { ui: 'redoc', assets: 'cdn' })).not.toThrow()
  })
})

describe.each(hosts)('the default assets on %s', (_, express) => {
  it.each(['swagger', 'redoc'] as const)(
    'load %s from the CDN when its package is not installed, under a CSP of the CDN',
    async (ui) => {
      const app = express()
      app.use('/docs', serveDocs(demoSpec(), { ui }))
      const page = await request(app).get('/docs/')
      expect(page.headers['content-security-policy']).toContain(
        `script-src ${cdnSource(ui)} 'sha256-`,
      )
      expect(page.text).toContain(`<script src="${cdnSource(ui)}`)
      expect(page.text).not.toContain('./assets/')
      // The notice names the package that would serve the files from the app.
      expect(page.text).toContain(`npm install ${ui === 'redoc' ? 'redoc@2' : 'swagger-ui-dist@5'}`)
    },
  )

  it('load Scalar from the CDN when the installed package is another major version', async () => {
    const app = express()
    app.use('/docs', serveDocs(demoSpec()))
    app.use('/local', serveDocs(demoSpec(), { assets: 'local' }))
    const page = await request(app).get('/docs/')
    expect(page.headers['content-security-policy']).toContain(`script-src ${cdnSource('scalar')} `)
    expect(page.text).not.toContain('./assets/')
    // An explicit 'local' serves whatever is installed, as before.
    const local = await request(app).get('/local/')
    expect(local.headers['content-security-policy']).toMatch(/script-src 'self' /)
  })
})
