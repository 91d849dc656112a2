import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { root } from '../support/readme-blocks.js'

const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'))
const readme = readFileSync(resolve(root, 'README.md'), 'utf8')

/** The rows of the table just below `<!-- readme: NAME -->`, as arrays of cells. */
function table(name: string): string[][] {
  const lines = readme.split('\n')
  const at = lines.indexOf(`<!-- readme: ${name} -->`)
  expect(at, `README has a table marked ${name}`).toBeGreaterThan(-1)
  const rows: string[][] = []
  for (let i = at + 3; lines[i]?.startsWith('|'); i++) {
    rows.push(
      (lines[i] ?? '')
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    )
  }
  return rows
}

const code = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '')

describe("the README's tables of imports and peers", () => {
  it('lists every subpath package.json exports, and no other', () => {
    const listed = table('imports').map(([cell = '']) => code(cell)[0])
    const exported = Object.keys(pkg.exports)
      .filter((key) => key !== './package.json')
      .map((key) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`))
    expect([...listed].sort()).toEqual([...exported].sort())
  })

  it('names only what each subpath exports', async () => {
    for (const [cell = '', holds = ''] of table('imports')) {
      const subpath = code(cell)[0] ?? ''
      const module = await import(subpath)
      for (const name of code(holds))
        expect(module, `${subpath} exports ${name}`).toHaveProperty(name)
    }
  })

  it('lists every optional peer, and no other', () => {
    const listed = table('peers').map(([cell = '']) => code(cell)[0])
    const optional = Object.keys(pkg.peerDependenciesMeta).filter(
      (name) => pkg.peerDependenciesMeta[name].optional === true,
    )
    expect([...listed].sort()).toEqual([...optional].sort())
  })

  it('names the runtime dependencies', () => {
    const deps = Object.keys(pkg.dependencies)
    const sentence =
      /`express` \(4\.21\+ or 5\) and `zod` \([^)]*\) are peer dependencies; ([^.]*) (?:is|are) the runtime dependenc/.exec(
        readme.replace(/\s+/g, ' '),
      )
    expect(sentence?.[1] && code(sentence[1]).sort()).toEqual([...deps].sort())
  })
})
