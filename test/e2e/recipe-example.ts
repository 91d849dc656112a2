import { mkdirSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { root } from '../support/readme-blocks.js'
import { markedBlock } from '../support/readme-example.js'

// A guide's or recipe's `<!-- readme: example NAME -->` block as a module: `shapeguard` and its
// subpaths read from src/, `express` the host's, a trailing `app.listen(…)` line dropped (the
// tests serve the app through supertest) and `tail` appended (`export { app }\n`).

const tmp = resolve(root, '.tmp/readme')

export async function recipeExample<T>(name: string, host: string, tail = ''): Promise<T> {
  const code = markedBlock('example', name)
    .code.replace(/^app\.listen\(.*\)\n/m, '')
    .replace(/from 'shapeguard'/g, `from '${root}/src/index.ts'`)
    .replace(/from 'shapeguard\/adapters\/(\w+)'/g, `from '${root}/src/adapters/$1/index.ts'`)
    .replace(/from 'shapeguard\/client'/g, `from '${root}/src/client.ts'`)
    .replace(/from 'shapeguard\/(\w+)'/g, `from '${root}/src/$1/index.ts'`)
    .replace(/from 'express'/g, `from '${host === 'express 4' ? 'express4' : 'express'}'`)
  mkdirSync(tmp, { recursive: true })
  const file = resolve(tmp, `recipe-${name}-${host.replace(' ', '')}.ts`)
  writeFileSync(file, `${code}${tail}`)
  return (await import(/* @vite-ignore */ file)) as T
}
