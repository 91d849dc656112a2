import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'

// fuzzRoutes is runner-neutral: a promise that rejects with an Error. Shown here under node:test,
// on the built package, in a fresh process.
const root = resolve(import.meta.dirname, '../..')
const fixture = join(import.meta.dirname, 'fixtures/fuzz-node-test.mjs')

function nodeTest(bug: boolean) {
  return spawnSync(process.execPath, ['--test', '--test-reporter=spec', fixture], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, FUZZ_BUG: bug ? '1' : '0', NODE_ENV: 'test' },
  })
}

describe('fuzzRoutes under node:test', () => {
  beforeAll(() => {
    if (!existsSync(join(root, 'dist/testing.js'))) {
      spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' })
    }
  })

  it('passes on a correct app', () => {
    const run = nodeTest(false)
    expect(run.stdout).toMatch(/pass 1/)
    expect(run.status).toBe(0)
  })

  it('fails with the shrunk request as a curl line on a planted bug', () => {
    const run = nodeTest(true)
    expect(run.status).toBe(1)
    expect(run.stdout).toContain('POST /tags: answered 500')
    expect(run.stdout).toContain(`--data-raw '{"tags":[]}'`)
  })
})
