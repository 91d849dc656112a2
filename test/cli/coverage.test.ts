import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { ensureBuilt, hosts, onHost, shapeguard } from '../support/cli.js'
import { markedBlock } from '../support/readme-example.js'

// `shapeguard coverage <module> -- <test command>` runs the project's own tests (here `node
// --test` on a supertest file) with every process recording, then prints the table.

vi.setConfig({ testTimeout: 90_000, hookTimeout: 300_000 })

beforeAll(() => {
  ensureBuilt()
})

// docs/cli.md shows it: the guide's block is what the command prints.
const table = markedBlock('output', 'coverage-table').code

const secret = '4999000011112222'

describe.each(hosts)('shapeguard coverage on %s', (_, host) => {
  const setUp = () => {
    onHost('coverage-shop.test.mjs', host)
    return onHost('coverage-shop.mjs', host).replace(/\/coverage-shop\.mjs$/, '')
  }
  const tests = ['--', process.execPath, '--test', 'coverage-shop.test.mjs']

  it('prints the table of what the tests exercised; exits 0 when every --min is met', () => {
    const cwd = setUp()
    const json = `coverage-${host}.json`
    const run = shapeguard(
      ['coverage', 'coverage-shop.mjs', '--min', 'routes=100,codes=100', '--json', json, ...tests],
      { cwd, env: { PLANTED_SECRET: secret }, timeout: 80_000 },
    )
    expect(run.status).toBe(0)
    expect(run.stdout.startsWith(table)).toBe(true)
    expect(run.stdout).toContain('    body.payment | invoice\n')
    const text = readFileSync(join(cwd, json), 'utf8')
    rmSync(join(cwd, json))
    expect(JSON.parse(text).overall).toEqual({ covered: 9, total: 21, percent: 42.8 })
    // The card number the tests sent is nowhere in what the command wrote.
    expect(`${text}${run.stdout}`).not.toContain(secret)
  })

  it('exits 1 under a --min threshold, and when the tests fail', () => {
    const cwd = setUp()
    const below = shapeguard(['coverage', 'coverage-shop.mjs', '--min', 'statuses=50', ...tests], {
      cwd,
      timeout: 80_000,
    })
    expect(below.status).toBe(1)
    expect(below.stdout.startsWith(table)).toBe(true)
    expect(below.stdout.endsWith('below --min: statuses 27.2% < 50%\n')).toBe(true)
    const failing = shapeguard(['coverage', 'coverage-shop.mjs', ...tests], {
      cwd,
      env: { FAIL_ONE: '1' },
      timeout: 80_000,
    })
    expect(failing.status).toBe(1)
    expect(failing.stdout.endsWith('the test command exited 1\n')).toBe(true)
  })
})

describe('shapeguard coverage usage', () => {
  it('exits 2 without a test command or with a --min it cannot read', () => {
    const none = shapeguard(['coverage', 'crash.mjs'])
    expect(none.status).toBe(2)
    expect(none.stderr).toContain('needs the test command after --')
    const bad = shapeguard(['coverage', 'crash.mjs', '--min', 'lines=80', '--', 'true'])
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain('--min lines=80: give metric=percent')
  })
})
