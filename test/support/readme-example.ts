import { mkdirSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { readmeBlocks, root } from './readme-blocks.js'

// A guide's `<!-- readme: example NAME -->` block as a module the tests import: written under
// .tmp/readme with `shapeguard` (and its subpaths) read from src/ and `express` the host's.

const tmp = resolve(root, '.tmp/readme')
const subpaths: Record<string, string> = {
  shapeguard: 'src/index.ts',
  'shapeguard/client': 'src/client.ts',
  'shapeguard/openapi': 'src/openapi/index.ts',
  'shapeguard/testing': 'src/testing/index.ts',
}

/** The block marked `kind NAME` in the README or a guide; throws when there is none. */
export function markedBlock(kind: 'example' | 'output', name: string) {
  const found = readmeBlocks().find((b) => b[kind] === name)
  if (found === undefined) throw new Error(`no block is marked ${kind} ${name}`)
  return found
}

/**
 * Imports the example block `name`, run on `host` (`'express 4'` or `'express 5'`), with `tail`
 * appended (e.g. `export { app }\n` for a block that does not export its app).
 */
export async function importExample<T = Record<string, unknown>>(
  name: string,
  host = 'express 5',
  tail = '',
): Promise<T> {
  const code = markedBlock('example', name)
    .code.replace(/from '(shapeguard(?:\/[a-z]+)?)'/g, (whole, path: string) =>
      subpaths[path] === undefined ? whole : `from '${resolve(root, subpaths[path])}'`,
    )
    .replace(/from 'express'/g, `from '${host === 'express 4' ? 'express4' : 'express'}'`)
  mkdirSync(tmp, { recursive: true })
  const file = resolve(tmp, `${name}-${host.replace(' ', '')}.ts`)
  writeFileSync(file, `${code}${tail}`)
  return (await import(/* @vite-ignore */ file)) as T
}
