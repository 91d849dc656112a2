import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { ensureBuilt, hosts, onHost, shapeguard } from '../support/cli.js'

// `shapeguard fuzz --report junit,har,json [--report-dir]`, `--replay FILE` and
// `--max-response-time`, against apps whose defect an environment variable fixes (a crash, a
// delete that leaves the user readable).

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 })

beforeAll(() => {
  ensureBuilt()
})

const SECRET = 'cli-secret-789'
const key = ['--header', `x-api-key: ${SECRET}`]

describe.each(hosts)('shapeguard fuzz reports on %s', (_, host) => {
  const cwd = () => onHost('toggle.mjs', host).replace(/\/toggle\.mjs$/, '')

  it('writes the three reports without the credential, and replays the saved failure until it is fixed', () => {
    const dir = cwd()
    const out = `reports-${host}`
    rmSync(join(dir, out), { recursive: true, force: true })
    const run = shapeguard(
      [
        'fuzz',
        'toggle.mjs',
        '--runs',
        '20',
        '--seed',
        '3',
        '--routes',
        'POST /items',
        ...key,
      ].concat(['--report', 'junit,har,json', '--report-dir', out]),
      { cwd: dir },
    )
    expect(run.stderr).toBe('')
    expect(run.status).toBe(1)
    expect(run.stdout).toContain(`  report: ${out}/fuzz.junit.xml\n`)
    const files = ['fuzz.junit.xml', 'fuzz.har', 'fuzz.json'].map((f) =>
      readFileSync(join(dir, out, f), 'utf8'),
    )
    for (const text of files) expect(text).not.toContain(SECRET)
    const [junit, har, json] = files as [string, string, string]
    expect(junit).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites /)
    expect(junit).toContain('<failure message="answered 500: a request must never get a 5xx"')
    expect(JSON.parse(har).log.entries.length).toBeGreaterThan(1)
    expect(JSON.parse(json).failures).toHaveLength(1)
    const replay = ['fuzz', 'toggle.mjs', '--replay', `${out}/fuzz.json`]
    // The masked key is given again; without it the replay is refused (401, undocumented).
    const still = shapeguard([...replay, ...key], { cwd: dir })
    expect([still.status, still.stdout.split('\n')[2]]).toEqual([
      1,
      'POST /items: answered 500: a request must never get a 5xx',
    ])
    const fixed = shapeguard([...replay, ...key], { cwd: dir, env: { FIXED: '1' } })
    expect(fixed.stdout).toBe(
      `fuzz: replayed 1 failure of ${out}/fuzz.json, 1 request: none breaks an invariant now\n  POST /items: 1 request\n`,
    )
    expect(fixed.status).toBe(0)
  })

  it('fails an answer past --max-response-time, and writes JUnit into shapeguard-reports by default', () => {
    const dir = cwd()
    rmSync(join(dir, 'shapeguard-reports'), { recursive: true, force: true })
    const args = [
      'fuzz',
      'toggle.mjs',
      '--routes',
      'GET /slow',
      '--runs',
      '2',
      '--seed',
      '1',
      ...key,
    ]
    const slow = shapeguard([...args, '--max-response-time', '100', '--report', 'junit'], {
      cwd: dir,
      env: { SLOW_MS: '300' },
    })
    expect(slow.status).toBe(1)
    expect(slow.stdout).toMatch(
      /GET \/slow: answered 200 in \d+ ms, past maxResponseTime \(100 ms\)/,
    )
    expect(existsSync(join(dir, 'shapeguard-reports', 'fuzz.junit.xml'))).toBe(true)
    const fast = shapeguard([...args, '--max-response-time', '1000'], { cwd: dir })
    expect(fast.status).toBe(0)
  })

  it('replays a saved stateful failure with the ids the replay creates, until it is fixed', () => {
    const dir = onHost('stateful-toggle.mjs', host).replace(/\/stateful-toggle\.mjs$/, '')
    const out = `stateful-${host}`
    rmSync(join(dir, out), { recursive: true, force: true })
    const app = ['fuzz', 'stateful-toggle.mjs']
    const found = shapeguard(
      [...app, '--phases', 'stateful', '--seed', '5', ...key, '--report', 'json'].concat([
        '--report-dir',
        out,
      ]),
      { cwd: dir },
    )
    const invariant =
      /\n(GET|DELETE) \/users\/:id: use_after_free: \1 \/users\/:id answered 200 after DELETE \/users\/:id answered 200\n/
    expect([found.status, found.stderr]).toEqual([1, ''])
    expect(found.stdout).toMatch(invariant)
    const json = readFileSync(join(dir, out, 'fuzz.json'), 'utf8')
    expect(json).not.toContain(SECRET)
    const replay = [...app, '--replay', `${out}/fuzz.json`, ...key]
    const still = shapeguard(replay, { cwd: dir })
    expect([still.status, still.stderr]).toEqual([1, ''])
    expect(still.stdout).toMatch(invariant)
    // Its replay line is the same command again.
    expect(still.stdout).toContain(
      `  replay: shapeguard fuzz stateful-toggle.mjs --replay ${out}/fuzz.json --header 'x-api-key: ***'\n`,
    )
    const fixed = shapeguard(replay, { cwd: dir, env: { FIXED: '1' } })
    expect([fixed.status, fixed.stderr]).toEqual([0, ''])
    expect(fixed.stdout).toMatch(
      new RegExp(`^fuzz: replayed 1 failure of ${out}/fuzz\\.json, \\d+ requests: none breaks`),
    )
    // A field of the file edited into what no report holds: a usage error naming it, no stack.
    const saved = JSON.parse(json)
    saved.failures[0].request.headers['x-api-key'] = 7
    writeFileSync(join(dir, out, 'bad.json'), JSON.stringify(saved))
    const bad = shapeguard([...app, '--replay', `${out}/bad.json`, ...key], { cwd: dir })
    expect(bad.status).toBe(2)
    expect(bad.stdout).toBe('')
    expect(bad.stderr).toContain(
      `--replay: ${out}/bad.json: failures[0].request.headers["x-api-key"] is not a string`,
    )
    expect(bad.stderr).not.toMatch(/\n\s+at /)
  })

  it('masks the credentials an app echoes in every report file, in every form', () => {
    const dir = onHost('echo-secrets.mjs', host).replace(/\/echo-secrets\.mjs$/, '')
    const out = `reports-echo-${host}`
    rmSync(join(dir, out), { recursive: true, force: true })
    const secrets = ['cli/tok+en=42', 'cli&key=77/x', 'tenant-secret-5']
    const run = shapeguard(
      ['fuzz', 'echo-secrets.mjs', '--runs', '3', '--seed', '2', '--phases', 'random'].concat(
        ['--auth', `bearer=${secrets[0]}`, '--auth', `key=${secrets[1]}`, '--auth'],
        [`query=${secrets[1]}`, '--header', `x-tenant: ${secrets[2]}`],
        ['--report', 'junit,har,json', '--report-dir', out],
      ),
      { cwd: dir },
    )
    expect(run.stderr).toBe('')
    expect(run.status).toBe(1)
    expect(run.stdout).toContain('GET /echo: a valid request got 422 (q: *** *** ***)')
    const forms = secrets.flatMap((s) => [
      s,
      encodeURIComponent(s),
      JSON.stringify(s).slice(1, -1),
      s.replace(/&/g, '&amp;'),
    ])
    const files = ['fuzz.junit.xml', 'fuzz.har', 'fuzz.json'].map((f) =>
      readFileSync(join(dir, out, f), 'utf8'),
    )
    for (const text of [run.stdout, ...files])
      for (const form of forms) expect(text.includes(form), form).toBe(false)
    expect(JSON.parse(files[1]!).log.entries.length).toBeGreaterThan(1)
    expect(files[0]).toContain('<failure message="a valid request got 422 (q: *** *** ***)"')
  })

  it('refuses an unknown report format and a replay file that is not a report', () => {
    const dir = cwd()
    const bad = shapeguard(['fuzz', 'toggle.mjs', '--report', 'xml'], { cwd: dir })
    expect(bad.status).not.toBe(0)
    expect(bad.stderr).toContain('--report takes junit, har, json (comma-separated), not xml')
    const notReport = shapeguard(['fuzz', 'toggle.mjs', '--replay', 'toggle.mjs'], { cwd: dir })
    expect(notReport.status).not.toBe(0)
    expect(notReport.stderr).toContain('--replay: toggle.mjs: not JSON')
  })
})
