import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

describe('test setup', () => {
  it('fails a test that writes to the console without spying on it', () => {
    const dir = resolve(import.meta.dirname, 'fixtures/console')
    const run = spawnSync('npx', ['vitest', 'run', '--root', dir], {
      encoding: 'utf8',
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    })
    expect(run.status).not.toBe(0)
    expect(run.stdout + run.stderr).toContain('unexpected console output')
    expect(run.stdout + run.stderr).toContain('console.log: stray line')
  })
})
