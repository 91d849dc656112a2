import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EXIT } from '../../src/cli/usage-error.js'

// docs/versioning.md promises what package.json, .ci/run and the command say: it must name the
// same entry points, Node lines, peer ranges, runtime dependencies and exit statuses.
const root = resolve(import.meta.dirname, '../..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const page = readFileSync(join(root, 'docs/versioning.md'), 'utf8').replace(/\s+/g, ' ')
const ciRun = readFileSync(join(root, '.ci/run'), 'utf8')

describe('docs/versioning.md', () => {
  it('names every entry point of "exports" as public', () => {
    const subpaths = Object.keys(pkg.exports)
      .filter((key) => key !== './package.json')
      .map((key) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`))
    for (const subpath of subpaths) expect(page).toContain(`\`${subpath}\``)
  })

  it('names the Node lines engines allows and CI runs', () => {
    const newest = /scripts\/node-line\.sh (\d+)/.exec(ciRun)![1]!
    const others = /scripts\/test-node-lines\.sh ([\d ]+)/.exec(ciRun)![1]!.trim().split(' ')
    const [a, b, c] = [newest, ...others].map(Number).sort((x, y) => x - y)
    expect(page).toContain(`\`engines\` field says \`${pkg.engines.node}\``)
    expect(pkg.engines.node).toBe(`>=${a}`)
    expect(page).toContain(`tests every release on Node.js ${a}, ${b} and ${c}`)
  })

  it("quotes Express's and zod's peer ranges and lists the runtime dependencies", () => {
    expect(page).toContain(`Express \`${pkg.peerDependencies.express}\``)
    expect(page).toContain(`zod \`${pkg.peerDependencies.zod}\``)
    const dependencies = Object.keys(pkg.dependencies).sort()
    const listed = /\(today (.+?)\)/.exec(page)![1]!
    expect([...listed.matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort()).toEqual(dependencies)
  })

  it("gives the command's exit statuses", () => {
    expect(page).toContain(
      `(${EXIT.ok} success, ${EXIT.problem} a problem \`fuzz\`, \`check\`, \`diff\` or \`coverage\` found, ${EXIT.usage} the command could not run, ${EXIT.signal} plus the signal's number when a signal ends it)`,
    )
  })
})
