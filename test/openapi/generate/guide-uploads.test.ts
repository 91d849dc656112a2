import { mkdirSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { expect, it } from 'vitest'
import { readmeBlocks, root } from '../../support/readme-blocks.js'

// The uploads-and-cookies example of docs/openapi.md runs as written (on an Express app of its
// own), and the document it writes holds the parameters and body the guide shows.

const blocks = readmeBlocks().filter(
  (b) => b.file === 'docs/openapi.md' && b.section === 'Uploads and cookies',
)

it('writes the parameters and request body docs/openapi.md shows for a route with files and cookies', async () => {
  const [example, shown] = blocks
  expect([example?.lang, shown?.lang]).toEqual(['ts', 'json'])
  expect(shown!.skip).toContain('test/openapi/generate/guide-uploads.test.ts')
  const code = example!.code.replace(/from 'shapeguard'/g, `from '${root}/src/index.ts'`)
  const dir = resolve(root, '.tmp/readme')
  mkdirSync(dir, { recursive: true })
  const file = resolve(dir, 'openapi-uploads.ts')
  writeFileSync(
    file,
    `import express from 'express'\nconst app = express()\n${code}export { spec }\n`,
  )
  const { spec } = await import(/* @vite-ignore */ file)
  const { parameters, requestBody } = spec.paths['/me/avatar'].put
  expect({ parameters, requestBody }).toEqual(JSON.parse(shown!.code))
})
