import { mkdirSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { expect, it } from 'vitest'
import { readmeBlocks, root } from '../../support/readme-blocks.js'

// The uploads-and-cookies example of docs/openapi.md, and the Files example of
// docs/validation.md, run as written (on an Express app of their own), and the document each
// writes holds the parameters and body its guide shows.

const blocks = readmeBlocks().filter(
  (b) => b.file === 'docs/openapi.md' && b.section === 'Uploads and cookies',
)

async function run(code: string, name: string, tail = ''): Promise<any> {
  const source = code.replace(/from 'shapeguard'/g, `from '${root}/src/index.ts'`)
  const dir = resolve(root, '.tmp/readme')
  mkdirSync(dir, { recursive: true })
  const file = resolve(dir, `${name}.ts`)
  writeFileSync(
    file,
    `import express from 'express'\nconst app = express()\n${source}${tail}export { spec }\n`,
  )
  return (await import(/* @vite-ignore */ file)).spec
}

it('writes the parameters and request body docs/openapi.md shows for a route with files and cookies', async () => {
  const [example, shown] = blocks
  expect([example?.lang, shown?.lang]).toEqual(['ts', 'json'])
  expect(shown!.skip).toContain('test/openapi/generate/guide-uploads.test.ts')
  const spec = await run(example!.code, 'openapi-uploads')
  const { parameters, requestBody } = spec.paths['/me/avatar'].put
  expect({ parameters, requestBody }).toEqual(JSON.parse(shown!.code))
})

it('writes the request body docs/validation.md shows for its Files example', async () => {
  const [example, , shown] = readmeBlocks().filter(
    (b) => b.file === 'docs/validation.md' && b.section === 'Files',
  )
  expect([example?.lang, shown?.lang]).toEqual(['ts', 'json'])
  expect(shown!.skip).toContain('test/openapi/generate/guide-uploads.test.ts')
  const tail = `import { generateOpenAPI } from '${root}/src/index.ts'\nconst spec = generateOpenAPI({ title: 'Profiles', version: '1.0.0', app })\n`
  const spec = await run(example!.code, 'validation-files', tail)
  expect(spec.paths['/profile'].post.requestBody).toEqual(JSON.parse(shown!.code))
})
