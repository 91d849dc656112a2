import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CDN_ORIGIN, cdnUrl, UI_PACKAGES } from '../../../src/openapi/docs/assets.js'
import { loadLocalAssets } from '../../../src/openapi/docs/local-assets.js'

const modules = resolve(import.meta.dirname, '../../../node_modules')
const packages = Object.entries(UI_PACKAGES)

describe('UI_PACKAGES', () => {
  it.each(packages)('%s: the pinned version is the installed one (dev dependency)', (_, pkg) => {
    const installed = JSON.parse(readFileSync(join(modules, pkg.name, 'package.json'), 'utf8'))
    expect(installed.version).toBe(pkg.version)
  })

  it.each(packages)('%s: each SRI hash is the hash of the installed file', (_, pkg) => {
    for (const file of pkg.files) {
      const body = readFileSync(join(modules, pkg.name, file.path))
      expect(file.integrity).toBe(`sha384-${createHash('sha384').update(body).digest('base64')}`)
      expect(cdnUrl(pkg, file)).toBe(`${CDN_ORIGIN}/npm/${pkg.name}@${pkg.version}/${file.path}`)
    }
  })

  it('keeps Redoc on major 2, whose standalone bundle is a classic script', () => {
    expect(UI_PACKAGES.redoc.version).toMatch(/^2\./)
    const bundle = readFileSync(join(modules, 'redoc/bundles/redoc.standalone.js'), 'utf8')
    expect(bundle).not.toMatch(/^\s*(import|export)\s/m)
  })
})

describe('loadLocalAssets', () => {
  it.each(packages)('%s: serves the installed files under a content-hashed path', (ui, pkg) => {
    const assets = loadLocalAssets(ui as keyof typeof UI_PACKAGES)
    expect(assets.map((a) => a.file)).toEqual(pkg.files)
    for (const asset of assets) {
      expect(asset.urlPath).toMatch(/^assets\/[A-Za-z0-9_-]{12}\/[^/]+$/)
      expect(asset.integrity).toBe(asset.file.integrity)
      expect(asset.etag).toMatch(/^"[A-Za-z0-9_-]+"$/)
    }
  })
})
