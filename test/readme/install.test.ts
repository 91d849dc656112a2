import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readmeBlocks, root } from '../support/readme-blocks.js'

const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'))
const install = readmeBlocks()
  .filter((b) => b.file === 'README.md' && b.section === 'Install' && b.lang === 'sh')
  .map((b) => b.code)
  .join('')

describe('the README install instructions', () => {
  it('install from a tarball named as npm pack names it', () => {
    expect(install).toContain('npm pack')
    expect(install).toContain(`npm install ../shapeguard/${pkg.name}-${pkg.version}.tgz`)
  })

  it('install from the git repository that package.json names, which builds on install', () => {
    const url = /^npm install .*?(git\+https:\/\/\S+)/m.exec(install)?.[1]
    expect(url).toBe(pkg.repository.url)
    expect(install).toContain(`git clone ${pkg.repository.url.replace(/^git\+/, '')}`)
    const web = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')
    expect(pkg.homepage).toBe(`${web}#readme`)
    expect(pkg.bugs).toEqual({ url: `${web}/issues` })
    // A git dependency is installed from source: without prepare it would have no dist/.
    expect(pkg.scripts.prepare).toBe('npm run build')
  })

  it('work from a fresh machine: every directory a command enters was made before it', () => {
    for (const block of readmeBlocks().filter(
      (b) =>
        b.lang === 'sh' &&
        ((b.file === 'README.md' && b.section === 'Install') ||
          (b.file === 'docs/getting-started.md' && b.section === 'A new project')),
    )) {
      // Each block starts in an empty folder: a clone or a mkdir makes what a cd enters.
      const made = new Set<string>()
      const entered: string[] = []
      for (const command of block.code
        .split(/\n|&&|\(|\)/)
        .map((c) => c.replace(/#.*/, '').trim())) {
        const clone = /^git clone \S+\/([\w-]+)\.git$/.exec(command)
        if (clone) made.add(clone[1] ?? '')
        const mkdir = /^mkdir (?:-p )?([\w-]+)$/.exec(command)
        if (mkdir) made.add(mkdir[1] ?? '')
        const cd = /^cd (\S+)$/.exec(command)
        if (cd) entered.push(cd[1] ?? '')
      }
      expect(entered.length, `${block.file}:${block.line}`).toBeGreaterThan(0)
      expect(
        entered.filter((dir) => !made.has(dir)),
        `${block.file}:${block.line}`,
      ).toEqual([])
      // A tarball is installed from the clone beside the project, as the block made it.
      for (const [, dir] of block.code.matchAll(/npm install \.\.\/([\w-]+)\//g)) {
        expect(made.has(dir ?? '')).toBe(true)
      }
    }
  })
})
