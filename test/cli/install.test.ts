import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ensureBuilt, root } from '../support/cli.js'

// `npx shapeguard` from a clean install of the packed tarball in a new project, with only the
// peers an app needs (express, zod): the bin is linked, finds the app's copy of shapeguard, and
// names each optional peer a command needs when it is missing.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 })

const version = (name: string) =>
  JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version

let project = ''

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

function npx(args: string[]) {
  const run = spawnSync('npx', ['--no-install', 'shapeguard', ...args], {
    cwd: project,
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

beforeAll(() => {
  ensureBuilt()
  project = mkdtempSync(join(tmpdir(), 'shapeguard-cli-install-'))
  const [tarball] = JSON.parse(
    npm(['pack', '--json', '--ignore-scripts', '--pack-destination', project], root),
  )
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'todo-api', version: '1.2.3', private: true, type: 'module' }),
  )
  npm(
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      join(project, tarball.filename),
      `express@${version('express')}`,
      `zod@${version('zod')}`,
    ],
    project,
  )
  writeFileSync(
    join(project, 'app.js'),
    `import express from 'express'
import { errorHandler, handle, shapeguard } from 'shapeguard'
import * as z from 'zod'

export const app = express()
app.use(shapeguard())
app.use(express.json())
app.post('/notes', ...handle({ body: z.object({ text: z.string() }), response: z.object({ text: z.string() }) }, (req, res) => res.created({ data: req.body })))
app.use(errorHandler())
app.listen(3000)
`,
  )
})

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true })
})

describe('npx shapeguard, installed from the packed tarball', () => {
  it('openapi writes the document of the app, titled after the project', () => {
    const run = npx(['openapi', 'app.js', '--out', 'docs/openapi.json'])
    expect(run.status).toBe(0)
    expect(run.stderr).toContain('warning: app.js:10 calls listen() as the module is loaded.')
    const doc = JSON.parse(readFileSync(join(project, 'docs/openapi.json'), 'utf8'))
    expect(doc.info).toEqual({ title: 'todo-api', version: '1.2.3' })
    expect(Object.keys(doc.paths)).toEqual(['/notes'])
  })

  it('check and fuzz name the optional peer they need and how to install it', () => {
    const check = npx(['check', 'app.js'])
    expect(check.status).toBe(2)
    expect(check.stderr).toContain('npm install -D @seriousme/openapi-schema-validator')
    const fuzz = npx(['fuzz', 'app.js'])
    expect(fuzz.status).toBe(2)
    expect(fuzz.stderr).toContain('needs the optional package "fast-check", which is not installed')
  })
})
