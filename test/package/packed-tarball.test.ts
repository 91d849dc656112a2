import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// Users meet the package as a tarball installed next to its peers: test exactly that.
const root = resolve(import.meta.dirname, '../..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const subpaths = Object.keys(pkg.exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`))

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

/** Peers installed in this checkout, at the exact versions the tests here use. */
function installedPeers(): string[] {
  return Object.keys(pkg.peerDependencies)
    .filter((name) => existsSync(join(root, 'node_modules', name, 'package.json')))
    .map((name) => {
      const { version } = JSON.parse(
        readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8'),
      )
      return `${name}@${version}`
    })
}

describe('the packed tarball', () => {
  let consumer = ''

  beforeAll(() => {
    if (!existsSync(join(root, 'dist/index.js'))) run('npm', ['run', 'build'], root)
    consumer = mkdtempSync(join(tmpdir(), 'shapeguard-consumer-'))
    const [tarball] = JSON.parse(
      run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', consumer], root),
    )
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true }),
    )
    run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        join(consumer, tarball.filename),
        ...installedPeers(),
      ],
      consumer,
    )
  })

  afterAll(() => {
    if (consumer) rmSync(consumer, { recursive: true, force: true })
  })

  it('ships only the build, the README, the guides it links to and the changelog', () => {
    const files = readdirSync(join(consumer, 'node_modules', pkg.name), {
      recursive: true,
      withFileTypes: true,
    })
      .filter((entry) => entry.isFile())
      .map((entry) =>
        join(entry.parentPath, entry.name).slice(
          join(consumer, 'node_modules', pkg.name).length + 1,
        ),
      )
      // npm nests a dependency whose version the consumer's tree holds another of (`cookie`,
      // which Express pins older): installed beside the package, not shipped in it.
      .filter((f) => !f.startsWith('node_modules/'))
    expect(
      files.every((f) =>
        /^(dist\/|docs\/|README\.md$|CHANGELOG\.md$|LICENSE$|package\.json$)/.test(f),
      ),
    ).toBe(true)
    expect(files).toContain('dist/index.js')
    // Every page the README links to is in the package, so the links work offline too.
    const readme = readFileSync(join(consumer, 'node_modules', pkg.name, 'README.md'), 'utf8')
    for (const [, page] of readme.matchAll(/\]\((docs\/[^)#]+)/g)) expect(files).toContain(page)
  })

  it('strips a response when shapeguard() and handle() come from different builds', () => {
    // One file imports the ESM build, another requires the CJS one: two copies in one process.
    const script = `
      import { createRequire } from 'node:module'
      import express from 'express'
      import * as z from 'zod'
      import { errorHandler, shapeguard } from 'shapeguard'
      const { handle } = createRequire(import.meta.url)('shapeguard')
      const app = express()
      app.use(shapeguard({ logger: { silent: true } }))
      app.get('/me', ...handle({ response: z.object({ id: z.number() }) }, async (_req, res) => {
        res.ok({ data: { id: 1, passwordHash: 'secret' } })
      }))
      app.use(errorHandler())
      const server = app.listen(0, '127.0.0.1', async () => {
        const res = await fetch('http://127.0.0.1:' + server.address().port + '/me')
        console.log(JSON.stringify(await res.json()))
        server.close()
      })
    `
    const out = run('node', ['--input-type=module', '-e', script], consumer)
    expect(JSON.parse(out)).toEqual({ success: true, message: '', data: { id: 1 } })
  })

  it.each(subpaths)('loads %s with import()', (subpath) => {
    const out = run(
      'node',
      ['--input-type=module', '-e', `const m = await import('${subpath}'); console.log(typeof m)`],
      consumer,
    )
    expect(out.trim()).toBe('object')
  })

  it.each(subpaths)('loads %s with require()', (subpath) => {
    const out = run('node', ['-e', `console.log(typeof require('${subpath}'))`], consumer)
    expect(out.trim()).toBe('object')
  })
})
