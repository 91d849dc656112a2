import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'

// fuzzRoutes is runner-neutral: a promise that rejects with an Error. Shown here under jest, on
// the built package (CommonJS, as most jest set-ups run), in a fresh process.
const root = resolve(import.meta.dirname, '../..')
const jest = join(root, 'node_modules/jest/bin/jest.js')

function jestRun(bug: boolean) {
  return spawnSync(
    process.execPath,
    [
      jest,
      '--rootDir',
      join(import.meta.dirname, 'fixtures'),
      '--testRegex',
      'fuzz-jest\\.cjs$',
      '--testEnvironment',
      'node',
      '--transform',
      '{}',
      '--ci',
      '--no-cache',
    ],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, FUZZ_BUG: bug ? '1' : '0', NODE_ENV: 'test' },
    },
  )
}

describe('fuzzRoutes under jest', () => {
  beforeAll(() => {
    if (!existsSync(join(root, 'dist/testing.cjs'))) {
      spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' })
    }
  })

  it('passes on a correct app', () => {
    const run = jestRun(false)
    expect(run.stderr).toMatch(/Tests:\s+1 passed/)
    expect(run.status).toBe(0)
  })

  it('fails with the shrunk request as a curl line on a planted bug', () => {
    const run = jestRun(true)
    expect(run.status).toBe(1)
    expect(run.stderr).toContain('POST /tags: answered 500')
    expect(run.stderr).toContain(`--data-raw '{"tags":[]}'`)
  })
})
