import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { ensureBuilt, root, shapeguard } from '../support/cli.js'

// The command line itself: help, version, and a usage error (exit 2) for every mistake in it.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 })

const commands = ['openapi', 'postman', 'insomnia', 'bruno', 'fuzz', 'check', 'coverage']

beforeAll(() => {
  ensureBuilt()
})

describe('shapeguard', () => {
  it('--help lists every command and the exit statuses', () => {
    const run = shapeguard(['--help'])
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/^Usage: shapeguard <command> <module> \[options\]\n/)
    for (const command of commands) expect(run.stdout).toMatch(new RegExp(`\\n  ${command} +\\w`))
    expect(run.stdout).toContain(
      'Exit status: 0 success; 1 fuzz, check or diff found a problem, or coverage\nfell below --min; 2',
    )
    expect(shapeguard(['-h']).stdout).toBe(run.stdout)
  })

  it('without arguments prints the help and exits 2', () => {
    const run = shapeguard([])
    expect(run.status).toBe(2)
    expect(run.stdout).toBe(shapeguard(['--help']).stdout)
  })

  it("--version prints the package's version", () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    expect(shapeguard(['--version'])).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' })
    expect(shapeguard(['-v']).stdout).toBe(`${version}\n`)
  })

  it('refuses an unknown command, naming the commands', () => {
    expect(shapeguard(['serve', 'app.mjs'])).toEqual({
      status: 2,
      stdout: '',
      stderr:
        'shapeguard: unknown command serve (openapi, postman, insomnia, bruno, fuzz, check, coverage, diff)\nSee shapeguard --help.\n',
    })
  })
})

describe.each(commands)('shapeguard %s', (command) => {
  it('--help describes it and every option', () => {
    const run = shapeguard([command, '--help'])
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(
      new RegExp(`^Usage: shapeguard ${command} <module> \\[options\\](?: -- <test command…>)?\n`),
    )
    expect(run.stdout).toContain('    --export <name>')
    expect(run.stdout).toContain('-h, --help')
    expect(run.stdout).toContain('Exit status:')
  })

  it('refuses an unknown option', () => {
    const run = shapeguard([command, 'formats/app.mjs', '--colour'])
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/^shapeguard: Unknown option '--colour'/)
    expect(run.stderr).toContain(`\nSee shapeguard ${command} --help.\n`)
  })

  it('needs the module', () => {
    expect(shapeguard([command])).toEqual({
      status: 2,
      stdout: '',
      stderr: `shapeguard: shapeguard ${command} needs the app's module: shapeguard ${command} <module>\nSee shapeguard ${command} --help.\n`,
    })
  })

  it('takes one module', () => {
    const run = shapeguard([command, 'formats/app.mjs', 'formats/app.cjs'])
    expect(run.status).toBe(2)
    expect(run.stderr).toContain(
      `unexpected argument formats/app.cjs: shapeguard ${command} takes one module`,
    )
  })
})

describe('option values', () => {
  it.each([
    [['openapi', 'formats/app.mjs', '--format', 'xml'], '--format must be json or yaml, not xml'],
    [['openapi', 'formats/app.mjs', '--out', 'formats'], 'cannot write --out formats: EISDIR'],
    [['fuzz', 'formats/app.mjs', '--runs', '0'], '--runs must be an integer of at least 1'],
    [['fuzz', 'formats/app.mjs', '--runs', '1e3'], '--runs must be an integer of at least 1'],
    [['fuzz', 'formats/app.mjs', '--seed', 'abc'], '--seed must be an integer'],
    [['fuzz', 'formats/app.mjs', '--header', 'x-tenant'], "--header takes 'name: value'"],
    [['fuzz', 'formats/app.mjs', '--status', 'GET /users/:id=4O4'], '--status takes statuses'],
    [
      ['fuzz', 'formats/app.mjs', '--routes', 'GET /nowhere'],
      'fuzzRoutes(): options.routes names GET /nowhere, which the app does not have',
    ],
  ])('%j is a usage error: %s', (args, message) => {
    const run = shapeguard(args)
    expect(run.status).toBe(2)
    expect(run.stderr).toContain(message)
    // One prefix, also on a message of the entries that names shapeguard itself.
    expect(run.stderr).toMatch(/^shapeguard: (?!.*shapeguard:)/s)
  })
})
