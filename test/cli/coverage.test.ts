import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
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

describe.each(hosts)('shapeguard fuzz --uncovered on %s', (_, host) => {
  // What the shop's tests left uncovered, as `shapeguard coverage --json` writes it, edited to
  // each case: the routes the fuzzer then targets are those with anything left.
  let report: { routes: Record<string, unknown>[] }
  let cwd: string
  beforeAll(() => {
    onHost('coverage-shop.test.mjs', host)
    cwd = onHost('coverage-shop.mjs', host).replace(/\/coverage-shop\.mjs$/, '')
    const json = `uncovered-${host}.json`
    const run = shapeguard(
      ['coverage', 'coverage-shop.mjs', '--json', json, '--', process.execPath, '--test'].concat(
        'coverage-shop.test.mjs',
      ),
      { cwd, timeout: 80_000 },
    )
    expect(run.status).toBe(0)
    report = JSON.parse(readFileSync(join(cwd, json), 'utf8'))
    rmSync(join(cwd, json))
  })
  const covered = (route: Record<string, unknown>) => ({
    ...route,
    ...Object.fromEntries(
      ['statuses', 'codes', 'enums', 'branches', 'optionals'].map((m) => [
        m,
        { ...(route[m] as object), missing: [] },
      ]),
    ),
  })
  const fuzz = (edited: unknown, ...more: string[]) => {
    const file = `edited-${host}.json`
    writeFileSync(join(cwd, file), JSON.stringify(edited))
    const run = shapeguard(
      ['fuzz', 'coverage-shop.mjs', '--uncovered', file, '--phases', 'boundaries', ...more],
      { cwd },
    )
    rmSync(join(cwd, file))
    return { ...run, file }
  }

  it('fuzzes only the routes with something uncovered, leaving out one the app no longer has', () => {
    const [post, get] = report.routes as [Record<string, unknown>, Record<string, unknown>]
    expect([post.route, get.route]).toEqual(['POST /orders', 'GET /orders/:id'])
    const gone = { ...post, route: 'DELETE /orders/:id' }
    const run = fuzz({ ...report, routes: [post, covered(get), gone] })
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/^fuzz: 1 route, \d+ requests, no invariant broken/)
    expect(run.stdout).toMatch(/\n {2}POST \/orders: \d+ requests/)
    expect(run.stdout).not.toContain('GET /orders/:id')
  })

  it('fuzzes nothing when nothing is uncovered, or nothing of --routes', () => {
    const all = fuzz({ ...report, routes: report.routes.map(covered) })
    expect(all.status).toBe(0)
    expect(all.stdout).toBe(`fuzz: ${all.file} lists nothing uncovered\n`)
    const [post, get] = report.routes as [Record<string, unknown>, Record<string, unknown>]
    const some = fuzz({ ...report, routes: [post, covered(get)] }, '--routes', 'get /orders/:id')
    expect(some.status).toBe(0)
    expect(some.stdout).toBe(`fuzz: ${some.file} lists nothing uncovered on --routes\n`)
    // Only routes the app no longer has: nothing to fuzz either.
    const old = fuzz({ ...report, routes: [{ ...post, route: 'DELETE /orders/:id' }] })
    expect(old.status).toBe(0)
    expect(old.stdout).toBe(`fuzz: ${old.file} lists nothing uncovered the app still has\n`)
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

  it('fuzz --uncovered refuses a file that is not a coverage report', () => {
    const run = (file: string) => shapeguard(['fuzz', 'crash.mjs', '--uncovered', file])
    expect(run('crash.mjs').stderr).toContain('--uncovered: crash.mjs: not JSON')
    const other = run('documents/invalid.json')
    expect(other.status).toBe(2)
    expect(other.stderr).toContain(
      '--uncovered: documents/invalid.json: not a coverage report (shapeguard coverage --json',
    )
    expect(run('missing.json').stderr).toContain('--uncovered: cannot read missing.json')
  })

  it("fuzz --uncovered: a route's failure replays with that route alone, without the file", () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-uncovered-'))
    const file = join(dir, 'coverage.json')
    const none = { declared: [], covered: [], missing: [], others: [] }
    const route = { route: 'POST /posts', requests: 0, statuses: none, codes: none }
    writeFileSync(
      file,
      JSON.stringify({ routes: [{ ...route, enums: none, branches: none, optionals: none }] }),
    )
    const run = shapeguard([
      'fuzz',
      'crash.mjs',
      '--uncovered',
      file,
      '--runs',
      '50',
      '--seed',
      '42',
    ])
    rmSync(dir, { recursive: true })
    expect(run.status).toBe(1)
    expect(run.stdout).toContain(
      "  replay: shapeguard fuzz crash.mjs --seed 42 --routes 'POST /posts' --runs 50\n",
    )
  })
})
