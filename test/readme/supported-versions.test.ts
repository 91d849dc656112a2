import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { root } from '../support/readme-blocks.js'

// The README's "Supported versions" table says what package.json promises and what CI installs:
// each peer's lowest version (its `-lowest` npm alias) and its newest (the installed package).
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'))
const readme = readFileSync(resolve(root, 'README.md'), 'utf8')
const section = readme.slice(readme.indexOf('\n### Supported versions\n'))
const rows = new Map(
  section
    .slice(0, section.indexOf('\n## '))
    .split('\n')
    .filter(
      (line) => line.startsWith('| ') && !line.startsWith('| What') && !line.startsWith('| -'),
    )
    .map((line) => {
      const [what, supported, tested] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim())
      return [what!.replace(' (optional)', ''), { supported: supported!, tested: tested! }]
    }),
)
const installed = (name: string): string =>
  JSON.parse(readFileSync(resolve(root, 'node_modules', name, 'package.json'), 'utf8')).version
const lowest = (alias: string): string => {
  const spec = pkg.devDependencies[alias] as string
  expect(spec, alias).toMatch(/^npm:[^@]+@\d+\.\d+\.\d+$/)
  return spec.slice(spec.lastIndexOf('@') + 1)
}

describe("the README's supported versions", () => {
  it('names the Node lines engines allows and CI runs', () => {
    expect(pkg.engines.node).toBe('>=22')
    expect(rows.get('Node.js')?.supported).toBe('22, 24, 26 (`>=22`)')
    const ci = readFileSync(resolve(root, '.ci/run'), 'utf8')
    expect(ci).toContain('scripts/node-line.sh 26')
    expect(ci).toContain('scripts/test-node-lines.sh 22 24')
    expect(ci).toContain('npm run test:peers')
  })

  it.each(['zod', 'valibot', 'yup', 'pino', 'winston', 'ioredis', 'redis'])(
    'tests %s at the lowest version its range allows and at the newest installed',
    (name) => {
      expect(pkg.peerDependencies[name], name).toBeDefined()
      expect(rows.get(name)?.tested).toBe(`${lowest(`${name}-lowest`)} and ${installed(name)}`)
    },
  )

  it('tests Express 4 at its lowest and newest, and Express 5 at its newest', () => {
    expect(pkg.peerDependencies.express).toBe('^4.21 || ^5')
    expect(rows.get('Express')?.tested).toBe(
      `${lowest('express-lowest')} and ${installed('express4')}; ${installed('express')}`,
    )
  })
})
