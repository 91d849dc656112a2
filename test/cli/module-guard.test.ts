import { existsSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { ensureBuilt, fixtures, hosts, onHost, shapeguard } from '../support/cli.js'

// What the app's module may not do while a command runs: end the process, or never finish
// loading. Either is exit status 2 with a message that names the file, never a silent status.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 })

beforeAll(() => {
  ensureBuilt()
})

describe.each(hosts)('a module that calls process.exit() while fuzz runs, on %s', (_, host) => {
  it.each(['0', '1'])('exit(%s) from a timer: exit status 2, naming the file', (code) => {
    const file = onHost('exits-later.mjs', host)
    const run = shapeguard(['fuzz', 'exits-later.mjs', '--runs', '30', '--seed', '1'], {
      cwd: dirname(file),
      env: { SHAPEGUARD_FIXTURE_EXIT_IN: 'timer', SHAPEGUARD_FIXTURE_EXIT: code },
    })
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(
      `shapeguard: exits-later.mjs called process.exit(${code}) after it was loaded, while the command ran: ` +
        'the command did not finish. Start what ends the process (timers, signal handlers) only when the ' +
        'file is run (if (import.meta.main) …), or in a file of its own.\n',
    )
  })
})

describe('a module that calls process.exit() as the command reads its openapi export', () => {
  it.each([
    ['openapi', '--out', 'exits-later.json'],
    ['postman', '--out', 'exits-later.json'],
    ['insomnia'],
    ['bruno'],
    ['check'],
    ['fuzz', '--runs', '1'],
  ])('shapeguard %s: exit status 2, nothing written', (command, ...args) => {
    const written = join(fixtures, 'exits-later.json')
    rmSync(written, { force: true })
    const run = shapeguard([command, 'exits-later.mjs', ...args], {
      env: { SHAPEGUARD_FIXTURE_EXIT_IN: 'config', SHAPEGUARD_FIXTURE_EXIT: '0' },
    })
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(
      /^shapeguard: exits-later\.mjs called process\.exit\(0\) after it was loaded, while the command ran/,
    )
    expect(existsSync(written)).toBe(false)
  })
})

describe('a module that never finishes loading', () => {
  const timedOut = (shown: string) =>
    `shapeguard: ${shown} did not finish loading within 1 s: it awaits something that does not ` +
    'happen while shapeguard loads it (a connection, a server event), or never returns. Do that ' +
    'only when the file is run (if (import.meta.main) …), or give it longer with --load-timeout ' +
    '<seconds> (default 30).\n'

  it.each([
    ['never-loads.mjs', 'awaits with a timer open'],
    ['loops/app.mjs', 'loops (ESM)'],
    ['loops/app.cjs', 'loops (CommonJS)'],
    ['loops/app.ts', 'loops (TypeScript)'],
    ['loops/factory.mjs', 'has a factory that loops'],
  ])('%s (%s): ended after --load-timeout, exit status 2', (module) => {
    const started = Date.now()
    const run = shapeguard(['openapi', module, '--load-timeout', '1'], { timeout: 20_000 })
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(timedOut(module))
    expect(Date.now() - started).toBeLessThan(15_000)
  })

  it('takes a timeout in seconds, and says so otherwise', () => {
    for (const value of ['0', '-1', 'abc', '1s', '86401']) {
      const run = shapeguard(['openapi', 'formats/app.mjs', `--load-timeout=${value}`])
      expect(run.status).toBe(2)
      expect(run.stderr).toBe(
        'shapeguard: --load-timeout takes seconds: a number above 0, at most 86400\n',
      )
    }
    const run = shapeguard(['openapi', 'formats/app.mjs', '--load-timeout', '2.5'])
    expect(run.status).toBe(0)
  })

  it('lists --load-timeout in every command that loads a module', () => {
    for (const command of ['openapi', 'postman', 'insomnia', 'bruno', 'fuzz', 'check'])
      expect(shapeguard([command, '--help']).stdout).toMatch(
        /--load-timeout <seconds> +how long the module may take to load \(default: 30\)/,
      )
  })
})

describe('the watchdog', () => {
  it('reads past a line on its channel that is not a report (the module wrote to fd 3)', () => {
    const run = shapeguard(['openapi', 'writes-fd3.mjs'])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout).paths['/ok']).toBeDefined()
  })
})
