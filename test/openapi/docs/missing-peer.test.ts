import type * as fs from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import { createDocs, serveDocs, serveSwaggerUI } from '../../../src/openapi/index.js'
import { demoSpec } from '../../fixtures/docs-spec.js'

// This machine has every UI package installed (dev dependencies): the file system is told to
// hide two of them, as on a host that never installed them.
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof fs>()
  const hidden = (path: fs.PathLike) =>
    /[\\/](swagger-ui-dist|redoc)[\\/]package\.json$/.test(String(path))
  return { ...real, existsSync: (path: fs.PathLike) => !hidden(path) && real.existsSync(path) }
})

describe('a UI package that is not installed', () => {
  it('is an error naming the package when local assets are asked for', () => {
    expect(() => serveSwaggerUI(demoSpec(), { assets: 'local' })).toThrow(
      'shapeguard: Swagger UI with assets: \'local\' serves its files from the optional package "swagger-ui-dist", which is not installed. Install it with: npm install swagger-ui-dist@5',
    )
    expect(() => createDocs({ spec: demoSpec(), assets: 'local' })).toThrow('"swagger-ui-dist"')
    expect(() => serveDocs(demoSpec(), { ui: 'redoc', assets: 'local' })).toThrow(
      'npm install redoc@2',
    )
  })

  it('is not needed from the CDN', () => {
    expect(() => serveSwaggerUI(demoSpec())).not.toThrow()
    expect(() => serveDocs(demoSpec(), { ui: 'redoc' })).not.toThrow()
  })
})
