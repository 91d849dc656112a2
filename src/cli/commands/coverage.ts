import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { CoverageThresholds } from 'shapeguard/testing'
import { type Command, loadOptions, stringOf, type Values } from '../command.js'
import { appDocument } from '../document.js'
import { testingEntry } from '../entries.js'
import { checkOut, emit } from '../io.js'
import { EXIT, UsageError } from '../usage-error.js'

const metrics = ['routes', 'statuses', 'codes', 'enums', 'branches', 'optionals', 'overall']

/** `--min routes=90,statuses=80` (repeatable) as thresholds. */
function thresholds(values: Values): CoverageThresholds {
  const min: Record<string, number> = {}
  const given = values.min
  for (const list of Array.isArray(given) ? given : given === undefined ? [] : [given]) {
    for (const entry of String(list).split(',')) {
      const match = /^([a-z]+)=(\d+(?:\.\d+)?)%?$/.exec(entry.replace(/\s/g, ''))
      if (match === null || !metrics.includes(match[1]!) || Number(match[2]) > 100)
        throw new UsageError(
          `--min ${entry}: give metric=percent, a metric of ${metrics.join(', ')} and a percent up to 100`,
          true,
        )
      min[match[1]!] = Number(match[2])
    }
  }
  return min
}

// Every Node process of the test command loads the recorder first; options already there stay.
function testEnv(dir: string): NodeJS.ProcessEnv {
  const register = pathToFileURL(resolve(import.meta.dirname, 'coverage-register.js')).href
  const options = process.env.NODE_OPTIONS ?? ''
  return {
    ...process.env,
    SHAPEGUARD_COVERAGE: dir,
    NODE_OPTIONS: `${options} --import=${JSON.stringify(register)}`.trim(),
  }
}

/** Runs the test command with its output on stderr (stdout is the table's); resolves its status. */
function runTests(command: readonly string[], cwd: string, dir: string): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd,
      env: testEnv(dir),
      stdio: ['inherit', 2, 2],
    })
    child.on('error', (error) =>
      fail(new UsageError(`cannot run the test command ${command[0]}: ${error.message}`)),
    )
    child.on('exit', (code, signal) => done(signal !== null ? EXIT.signal : (code ?? EXIT.usage)))
  })
}

/** `shapeguard coverage <module> -- <test command…>`: what the project's own tests exercised. */
export const coverage: Command = {
  summary: 'run your tests and show which routes, statuses and schema items they exercised',
  description:
    'Runs the test command given after -- with every Node process it starts recording the ' +
    "guarded requests of its apps (by route: statuses, error codes, and the schemas' enum " +
    'members, union branches and optional fields; names only, no request value), then prints ' +
    'a table per route of the app <module> exports against its routes, their schemas and its ' +
    `OpenAPI document, the overall percentage and what is not covered. Exits ${EXIT.problem} ` +
    'when the tests fail or a --min threshold is not met.',
  rest: '<test command…>',
  options: {
    min: {
      type: 'string',
      multiple: true,
      value: 'list',
      help: `least percentages: 'routes=100,statuses=80' (${metrics.join(', ')}; repeatable)`,
    },
    json: { type: 'string', value: 'file', help: 'also write the report as JSON to this file' },
    ...loadOptions,
  },
  async run(ctx) {
    const { module, values, io, rest } = ctx
    if (rest === undefined || rest.length === 0)
      throw new UsageError(
        'shapeguard coverage needs the test command after --: shapeguard coverage app.js -- npm test',
        true,
      )
    const min = thresholds(values)
    checkOut(io, stringOf(values, 'json'), module)
    if (!existsSync(resolve(io.cwd, module)))
      throw new UsageError(`cannot find the module ${module}`)
    const dir = mkdtempSync(join(tmpdir(), 'shapeguard-coverage-'))
    try {
      const status = await runTests(rest, io.cwd, dir)
      const { loaded, doc } = await appDocument(ctx)
      const testing = await testingEntry(loaded.cjs)
      const report = testing.coverageReport(loaded.app, testing.readCoverage(dir), {
        openapi: doc,
      })
      io.out(testing.coverageTable(report))
      const json = stringOf(values, 'json')
      if (json !== undefined) emit(io, json, `${JSON.stringify(report, null, 2)}\n`)
      const below = testing.belowThresholds(report, min)
      for (const line of below) io.out(`below --min: ${line}\n`)
      if (status !== 0) io.out(`the test command exited ${status}\n`)
      return status === 0 && below.length === 0 ? EXIT.ok : EXIT.problem
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
