import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// The GitHub Actions workflows say what .ci/run says: the same Node lines and steps, and a release
// that publishes only the version its tag names, after CI, with npm provenance.
const root = resolve(import.meta.dirname, '../..')
// yaml 2, the parser the OpenAPI validator (a dev dependency) reads YAML documents with.
const requireValidator = createRequire(
  createRequire(import.meta.url).resolve('@seriousme/openapi-schema-validator'),
)
const { parse } = requireValidator('yaml') as { parse: (text: string) => unknown }

interface Step {
  readonly name?: string
  readonly uses?: string
  readonly run?: string
  readonly if?: string
  readonly with?: Record<string, unknown>
  readonly env?: Record<string, string>
}
interface Job {
  readonly needs?: string | string[]
  readonly uses?: string
  readonly container?: string
  readonly permissions?: Record<string, string>
  readonly strategy?: { matrix: { node: number[] } }
  readonly steps?: Step[]
}
interface Workflow {
  readonly on: Record<string, unknown>
  readonly permissions: Record<string, string>
  readonly jobs: Record<string, Job>
}

const workflow = (name: string): Workflow =>
  parse(readFileSync(join(root, '.github/workflows', name), 'utf8')) as Workflow
const ci = workflow('ci.yml')
const release = workflow('release.yml')
const ciRun = readFileSync(join(root, '.ci/run'), 'utf8')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
/** A GitHub Actions expression as the workflow writes it: `${{ … }}`. */
const expression = (inner: string): string => `\${{ ${inner} }}`
const steps = (job: Job): Step[] => job.steps ?? []
const runs = (job: Job): string =>
  steps(job)
    .map((step) => step.run ?? '')
    .join('\n')

describe('ci.yml', () => {
  const test = ci.jobs.test!

  it("runs on the Node lines .ci/run tests, the lowest being engines' floor", () => {
    const newest = Number(/scripts\/node-line\.sh (\d+)/.exec(ciRun)![1])
    const others = /scripts\/test-node-lines\.sh ([\d ]+)/.exec(ciRun)![1]!.trim().split(' ')
    const lines = [newest, ...others.map(Number)].sort((a, b) => a - b)
    expect([...test.strategy!.matrix.node].sort((a, b) => a - b)).toEqual(lines)
    expect(pkg.engines.node).toBe(`>=${lines[0]}`)
    // The newest line installs and runs everything, as in .ci/run.
    const install = steps(test).filter((step) => step.uses?.startsWith('actions/setup-node@'))
    expect(install.at(-1)!.with!['node-version']).toBe(newest)
    for (const step of steps(test).filter((s) => /npm (test|run)/.test(s.run ?? ''))) {
      expect(step.if).toBe(`matrix.node == ${newest}`)
    }
  })

  it('runs every step .ci/run runs, with redis-server and chromium from Debian', () => {
    expect(test.container).toMatch(/^debian:/)
    expect(runs(test)).toMatch(/apt-get install[^\n]*(\\\n[^\n]*)*redis-server chromium/)
    for (const command of [
      'npm ci --no-audit --no-fund',
      'npm test',
      'npm run test:peers',
      'npm run check:publish',
    ]) {
      expect(ciRun).toContain(command)
      expect(runs(test)).toContain(command)
    }
    expect(runs(test)).toContain(`scripts/test-node-lines.sh ${expression('matrix.node')}`)
    expect(ci.on).toHaveProperty('workflow_call')
    expect(ci.permissions).toEqual({ contents: 'read' })
  })
})

describe('release.yml', () => {
  const { version, ci: tested, publish } = release.jobs

  it('starts on a pushed v*.*.* tag', () => {
    expect(release.on).toEqual({ push: { tags: ['v*.*.*'] } })
  })

  it("refuses a tag that is not package.json's version", () => {
    const check = steps(version!).find((step) => step.run?.includes('GITHUB_REF_NAME'))!.run!
    const tagged = (tag: string) =>
      spawnSync('bash', ['-euo', 'pipefail', '-c', check], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, GITHUB_REF_NAME: tag },
      })
    expect(tagged(`v${pkg.version}`).status).toBe(0)
    expect(tagged('v0.1.0').status).toBe(1)
    expect(tagged('v0.1.0').stdout).toContain(
      `does not match package.json's version ${pkg.version}`,
    )
    expect(tagged(pkg.version).status).toBe(1)
  })

  it('publishes with provenance only after the tag check and CI on every line', () => {
    expect(tested!.uses).toBe('./.github/workflows/ci.yml')
    expect(tested!.needs).toBe('version')
    expect(publish!.needs).toEqual(['version', 'ci'])
    expect(release.permissions).toEqual({ contents: 'read' })
    expect(publish!.permissions).toEqual({ contents: 'read', 'id-token': 'write' })
    const step = steps(publish!).find((s) => s.run?.startsWith('npm publish'))!
    expect(step.run).toBe('npm publish --provenance --access public --ignore-scripts')
    expect(step.env).toEqual({ NODE_AUTH_TOKEN: expression('secrets.NPM_TOKEN') })
    const node = steps(publish!).find((s) => s.uses?.startsWith('actions/setup-node@'))!
    expect(node.with!['registry-url']).toBe('https://registry.npmjs.org')
    expect(runs(publish!)).toContain('npm run check:publish')
  })
})

describe('both workflows', () => {
  it('pin each action to a major version at least', () => {
    const uses = [ci, release].flatMap((w) =>
      Object.values(w.jobs).flatMap((job) => steps(job).flatMap((step) => step.uses ?? [])),
    )
    expect(uses.length).toBeGreaterThan(0)
    for (const action of uses)
      expect(action).toMatch(/^[\w-]+\/[\w-]+@(v\d+(\.\d+){0,2}|[0-9a-f]{40})$/)
  })
})
