import { execFileSync, spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'

// The command is tested as users run it: the built bin (`npm run build` makes dist/cli.js) in a
// child process, on fixture apps that import `shapeguard` (the package's own dist, by
// self-reference) and Express 4 (`express4`) or 5.

export const root = resolve(import.meta.dirname, '../..')
export const bin = join(root, 'dist/cli.js')
export const fixtures = join(import.meta.dirname, '../cli/fixtures')

/** Builds the package once if dist/cli.js is missing. */
export function ensureBuilt(): void {
  if (!existsSync(bin)) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' })
}

export interface Result {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `shapeguard …args` with the Node running the tests; never longer than `timeout` ms. */
export function shapeguard(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {},
): Result {
  const run = spawnSync(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? fixtures,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    timeout: options.timeout ?? 60_000,
  })
  if (run.error) throw run.error
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

export const hosts = [
  ['express 4', 'express4'],
  ['express 5', 'express'],
] as const

/**
 * A copy of a fixture that imports Express `host` (`express4` or `express`), under .tmp/cli in
 * the repository (so `shapeguard` still resolves to this package); returns its path.
 */
export function onHost(fixture: string, host: string): string {
  const dir = join(root, '.tmp/cli', host)
  mkdirSync(dir, { recursive: true })
  const file = join(dir, basename(fixture))
  const code = readFileSync(join(fixtures, fixture), 'utf8')
    .replace(/from 'express'/g, `from '${host}'`)
    .replace(/require\('express'\)/g, `require('${host}')`)
  // Test files run in parallel: a copy appears whole or not at all.
  const part = `${file}.${randomUUID()}.part`
  writeFileSync(part, code)
  renameSync(part, file)
  return file
}
