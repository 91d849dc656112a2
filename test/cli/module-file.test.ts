import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { ensureBuilt, fixtures, root, shapeguard } from '../support/cli.js'

// The module argument is a file the command runs: one that is not JavaScript is named, never
// shown (pointed at a password file, the error must not print it), and --out never replaces code.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 })

const dir = join(root, '.tmp/cli/module-file')
const secret = 'user admin\npassword hunter2\n'

beforeAll(() => {
  ensureBuilt()
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  for (const name of ['passwd', '.env', 'notes.txt', 'secret.js', 'secret.cjs', 'secret.mjs'])
    writeFileSync(join(dir, name), secret)
  writeFileSync(join(dir, 'secret.ts'), secret)
  writeFileSync(join(dir, 'reads.mjs'), 'JSON.parse("password hunter2")\n')
  writeFileSync(join(dir, 'app.mjs'), readFileSync(join(fixtures, 'formats/app.mjs')))
  symlinkSync('app.mjs', join(dir, 'linked.json'))
}, 300_000)

describe('a module that is not JavaScript', () => {
  it.each(['passwd', '.env', 'notes.txt'])(
    '%s: named with the extensions the command loads, not run, not shown',
    (file) => {
      const run = shapeguard(['openapi', file], { cwd: dir })
      expect(run.status).toBe(2)
      expect(run.stdout).toBe('')
      expect(run.stderr).toBe(
        `shapeguard: ${file}: not a JavaScript or TypeScript module (.js, .mjs, .cjs, .ts, .mts, .cts, .jsx, .tsx): give the file that builds and exports the Express app\n`,
      )
    },
  )

  it.each([
    ['secret.js', ''],
    ['secret.cjs', ' at secret.cjs:1'],
    ['secret.mjs', ''],
    ['secret.ts', ' at secret.ts:1'],
    ['reads.mjs', ''],
  ])('%s: a syntax error, with where it is and never the text', (file, at) => {
    const run = shapeguard(['postman', file], { cwd: dir })
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(
      `shapeguard: ${file} could not be loaded: a syntax error${at}, in it or in what it imports or parses. ` +
        `Its message is not shown, as it can quote the file: node --check ${file} shows it.\n`,
    )
  })
})

describe('--out', () => {
  it.each(['app.mjs', './sub/../app.mjs', 'linked.json'])(
    'refuses %s, the module itself (a link to it included)',
    (out) => {
      const before = readFileSync(join(dir, 'app.mjs'), 'utf8')
      for (const command of ['openapi', 'bruno']) {
        const run = shapeguard([command, 'app.mjs', '--out', out], { cwd: dir })
        expect(run.status).toBe(2)
        expect(run.stderr).toBe(
          `shapeguard: --out ${out} is the module app.mjs: the command would replace it. Write to a file of its own (openapi.json).\n`,
        )
      }
      expect(readFileSync(join(dir, 'app.mjs'), 'utf8')).toBe(before)
    },
  )

  it('refuses a JavaScript or TypeScript file, which the module may import', () => {
    const run = shapeguard(['openapi', 'app.mjs', '--out', 'routes.ts'], { cwd: dir })
    expect(run.status).toBe(2)
    expect(run.stderr).toBe(
      'shapeguard: --out routes.ts is a JavaScript or TypeScript file: the command writes JSON or YAML. Write to a file of its own (openapi.json).\n',
    )
  })
})
