import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'

// shapeguard/client runs in browsers, Deno and Bun as well as Node: its built files, and every
// chunk they load, import nothing but one another (no Node module, no dependency; the build writes `node:http` as `http`).
const root = resolve(import.meta.dirname, '../..')
const dist = join(root, 'dist')
const specifiers = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g

/** Every specifier the file and the files it reaches by relative path import. */
function importsOf(entry: string): string[] {
  const seen = new Set<string>()
  const outside: string[] = []
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(specifiers)) {
      if (specifier!.startsWith('.')) visit(join(dirname(file), specifier!))
      else outside.push(specifier!)
    }
  }
  visit(entry)
  return outside
}

describe('the built shapeguard/client', () => {
  beforeAll(() => {
    if (!existsSync(join(dist, 'client.js')))
      execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' })
  })

  it('imports nothing outside its own files, ESM and CommonJS', () => {
    expect(importsOf(join(dist, 'client.js'))).toEqual([])
    expect(importsOf(join(dist, 'client.cjs'))).toEqual([])
  })

  it("is read right: the main entry's files import Node's modules and express (the check can fail)", () => {
    expect(importsOf(join(dist, 'index.js'))).toEqual(expect.arrayContaining(['http', 'express']))
  })
})
