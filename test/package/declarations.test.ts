import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'

// Editors show the shipped declaration comments to users, who have the README but none of the
// project's design files: a comment must not send them to a file they cannot open.
const root = resolve(import.meta.dirname, '../..')
const internal = /\b(?:SPEC|API|ARCHITECTURE|STYLE|NOTES)\.md\b/

describe('the shipped type declarations', () => {
  beforeAll(() => {
    if (!existsSync(join(root, 'dist/index.d.ts'))) {
      execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' })
    }
  })

  it('mention no file users do not have', () => {
    const files = readdirSync(join(root, 'dist'), { recursive: true, encoding: 'utf8' }).filter(
      (f) => /\.d\.c?ts$/.test(f),
    )
    expect(files.length).toBeGreaterThan(10)
    const offenders = files.filter((f) =>
      internal.test(readFileSync(join(root, 'dist', f), 'utf8')),
    )
    expect(offenders).toEqual([])
  })
})
