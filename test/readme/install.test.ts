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
    const url = /npm install (git\+https:\/\/\S+)/.exec(install)?.[1]
    expect(url).toBe(pkg.repository.url)
    expect(install).toContain(`git clone ${pkg.repository.url.replace(/^git\+/, '')}`)
    const web = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')
    expect(pkg.homepage).toBe(`${web}#readme`)
    expect(pkg.bugs).toEqual({ url: `${web}/issues` })
    // A git dependency is installed from source: without prepare it would have no dist/.
    expect(pkg.scripts.prepare).toBe('npm run build')
  })
})
