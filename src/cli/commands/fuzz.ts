import type { OpenAPIDocument } from 'shapeguard/openapi'
import type { FuzzFailure, FuzzReport, FuzzRoutesOptions } from 'shapeguard/testing'
import {
  maskedText,
  type SecretPlaces,
  secretPlaces,
  withValues,
} from '../../shared/credential-places.js'
import { curlLine } from '../../shared/curl-line.js'
import { routeCount } from '../../shared/fuzz-checks.js'
import type { SecurityScheme } from '../../shared/security-scheme.js'
import { type Command, loadOptions, stringOf, type Values } from '../command.js'
import { appDocument } from '../document.js'
import { type TestingEntry, testingEntry } from '../entries.js'
import type { Io } from '../io.js'
import { count, shellWords } from '../text.js'
import { EXIT, UsageError } from '../usage-error.js'
import { baseUrlOf, fuzzOptions, listOf } from './fuzz-options.js'
import {
  defaultReportDir,
  failuresFrom,
  formatsOf,
  uncoveredRoutes,
  writeReports,
} from './fuzz-reports.js'

// What a CI log must not show: the values of --auth and --header (tokens, API keys).
const secretOptions = new Set(['auth', 'header'])
const MASK = '***'

type Schemes = Readonly<Record<string, SecurityScheme>>

const schemesOf = (doc: OpenAPIDocument): Schemes =>
  (doc.components as { securitySchemes?: Schemes } | undefined)?.securitySchemes ?? {}

/**
 * Where the run's credentials travel, masked in its curl lines: `Authorization`, each API key's
 * header, query parameter or cookie, and every --header.
 */
function secretsOf({ headers = {} }: FuzzRoutesOptions, schemes: Schemes): SecretPlaces {
  return secretPlaces(schemes, Object.keys(headers))
}

// A flag's value as the replay shows it: a credential's scheme name, never its value.
function shownValue(name: string, value: string): string {
  if (!secretOptions.has(name)) return value
  if (name === 'header') return `${value.slice(0, value.indexOf(':') + 1)} ${MASK}`
  const scheme = /^([A-Za-z_$][\w$.-]*)=/.exec(value)
  return scheme === null ? MASK : `${scheme[1]}=${MASK}`
}

// The flags as given (but those `left` names), the values of --auth and --header as ***.
function optionWords(values: Values, left: (name: string) => boolean): string[] {
  const words: string[] = []
  for (const [name, value] of Object.entries(values)) {
    if (left(name)) continue
    for (const one of Array.isArray(value) ? value : [value])
      if (typeof one === 'string') words.push(`--${name}`, shownValue(name, one))
  }
  return words
}

/**
 * The command that replays one failure: the same options, its seed and only its route (a run of
 * --replay: the same command again); the values of --auth and --header are shown as ***, to be
 * given again.
 */
function replay(module: string, values: Values, f: FuzzFailure, report: FuzzReport): string {
  const words = ['shapeguard', 'fuzz', module]
  if (values.replay !== undefined) return shellWords(words.concat(optionWords(values, () => false)))
  words.push('--seed', String(f.seed))
  // A route's failure: that route alone. A stateful one: that phase, over the routes of the run.
  // An undeclared method's (no route of the report): the whole run, whose routes tell the methods.
  if (f.phase === 'stateful') words.push('--phases', 'stateful')
  const alone = f.phase !== 'stateful' && report.routes.some((r) => r.route === f.route)
  if (alone) words.push('--routes', f.route)
  const left = (name: string) =>
    name === 'seed' ||
    ((name === 'routes' || name === 'uncovered') && alone) ||
    (name === 'phases' && f.phase === 'stateful')
  words.push(...optionWords(values, left))
  return shellWords(words)
}

/** The routes `--uncovered` gives the run, and whether the app still has any of them. */
interface Targets {
  readonly routes: NonNullable<FuzzRoutesOptions['routes']>
  readonly found: () => boolean
}

/**
 * `--uncovered FILE`: the routes of the coverage report with anything uncovered (of those of
 * --routes, when given; a route the app no longer has is left out), or null when none is.
 */
function targets(
  file: string,
  options: FuzzRoutesOptions,
  io: Io,
  testing: TestingEntry,
): Targets | null {
  const wanted = uncoveredRoutes(file, io, testing)
  const given = options.routes as readonly string[] | undefined
  const routes = given === undefined ? [...wanted] : given.filter((key) => wanted.has(key))
  if (routes.length === 0) return null
  // --routes names the app's routes (fuzzRoutes refuses others); the file may name old ones.
  if (given !== undefined) return { routes, found: () => true }
  let found = false
  const pick = ({ method, path }: { method: string; path: string }) => {
    const hit = wanted.has(`${method} ${path}`)
    found ||= hit
    return hit
  }
  return { routes: pick, found: () => found }
}

function summary(report: FuzzReport, io: Io): void {
  for (const route of report.routes) {
    const notes = route.notes.length > 0 ? `; ${route.notes.join('; ')}` : ''
    io.out(`  ${route.route}: ${count(route.requests, 'request')}${notes}\n`)
  }
  for (const line of report.skipped) io.out(`  not fuzzed: ${line}\n`)
}

/** `shapeguard fuzz <module>`: fuzzRoutes() over the app; EXIT.problem with the shrunk requests. */
export const fuzz: Command = {
  summary:
    `fuzz every route; exit ${EXIT.problem} with the shrunk request ` + 'when an invariant breaks',
  description:
    "Runs fuzzRoutes() on the app <module> exports: requests generated from each route's " +
    'schemas (valid, invalid and hostile) sent over a listener on 127.0.0.1, every answer held ' +
    'to the contract. When one breaks it, prints the smallest such request as a curl line and ' +
    `the command that replays it, and exits ${EXIT.problem}. ` +
    'Needs fast-check (npm install -D fast-check).',
  options: {
    runs: { type: 'string', value: 'n', help: 'generated requests per route (default: 100)' },
    seed: { type: 'string', value: 'n', help: 'the seed, to replay a run (default: random)' },
    routes: {
      type: 'string',
      multiple: true,
      value: 'keys',
      help: "only these routes: 'POST /users,GET /users/:id' (repeatable)",
    },
    auth: {
      type: 'string',
      multiple: true,
      value: 'value',
      help: "a scheme's credential, 'bearer=TOKEN', 'apiKey=KEY', 'basic=user:pass' (repeatable), or the Authorization header: 'Bearer TOKEN'",
    },
    header: {
      type: 'string',
      multiple: true,
      value: "'name: value'",
      help: 'a header sent with every request (repeatable)',
    },
    status: {
      type: 'string',
      multiple: true,
      value: 'list',
      help: "statuses routes may answer beyond the document's: '404' or 'GET /users/:id=404'",
    },
    'stream-events': {
      type: 'string',
      value: 'n',
      help: 'events read of each answer of a streaming route (default: 20)',
    },
    'stream-ms': {
      type: 'string',
      value: 'ms',
      help: 'milliseconds each answer of a streaming route is read at most (default: 2000)',
    },
    phases: {
      type: 'string',
      multiple: true,
      value: 'list',
      help: 'the phases to run: examples,boundaries,random,stateful (default: all, in that order)',
    },
    'max-response-time': {
      type: 'string',
      value: 'ms',
      help: 'fail an answer slower than this many milliseconds (default: no limit)',
    },
    sequences: {
      type: 'string',
      value: 'n',
      help: 'stateful sequences per resource (default: 25)',
    },
    report: {
      type: 'string',
      multiple: true,
      value: 'list',
      help: 'write report files: junit,har,json (fuzz.junit.xml, fuzz.har, fuzz.json; credentials masked)',
    },
    'report-dir': {
      type: 'string',
      value: 'dir',
      help: `where --report writes (default: ${defaultReportDir})`,
    },
    uncovered: {
      type: 'string',
      value: 'file',
      help: 'only the routes a shapeguard coverage --json file lists something uncovered for',
    },
    replay: {
      type: 'string',
      value: 'file',
      help: `send the failures of a --report json file again; exit ${EXIT.ok} when fixed (give --auth/--header again)`,
    },
    'base-url': {
      type: 'string',
      value: 'url',
      help: 'where the curl lines point (default: http://localhost:3000)',
    },
    ...loadOptions,
  },
  async run(ctx) {
    const { module, values, io } = ctx
    const { loaded, doc } = await appDocument(ctx)
    const schemes = schemesOf(doc)
    const options = fuzzOptions(values, Object.keys(schemes))
    const testing = await testingEntry(loaded.cjs)
    const formats = formatsOf(listOf(values, 'report'))
    const replayFile = stringOf(values, 'replay')
    const coverageFile = stringOf(values, 'uncovered')
    const aimed =
      coverageFile === undefined ? undefined : targets(coverageFile, options, io, testing)
    const nothing = (where: string) => {
      io.out(`fuzz: ${coverageFile} lists nothing uncovered${where}\n`)
      return EXIT.ok
    }
    if (aimed === null) return nothing(options.routes ? ' on --routes' : '')
    const run: FuzzRoutesOptions = {
      ...options,
      ...(aimed !== undefined && { routes: aimed.routes }),
      openapi: doc,
      ...(formats.includes('har') && { record: true }),
      ...(replayFile !== undefined && { replay: failuresFrom(replayFile, io, testing) }),
    }
    const reports = (r: FuzzReport) =>
      writeReports(r, formats, stringOf(values, 'report-dir') ?? defaultReportDir, testing, {
        io,
        baseUrl: baseUrlOf(values),
        secrets: secretsOf(options, schemes),
      })
    let report: FuzzReport
    try {
      report = await testing.fuzzRoutes(loaded.app, run)
    } catch (error) {
      const failed = (error as { report?: FuzzReport }).report
      if (failed === undefined) throw new UsageError(String((error as Error).message ?? error))
      io.out(
        `fuzz: ${count(routeCount(failed.routes), 'route')}, ${count(failed.requests, 'request')}, ${count(failed.failures.length, 'broken invariant')} (seed ${failed.seed})\n`,
      )
      // The values sent in those places are masked too, wherever the app echoed them.
      const sent = failed.failures.flatMap((f) => f.sequence ?? [f.request])
      const secrets = withValues(secretsOf(options, schemes), sent)
      for (const f of failed.failures) {
        // A stateful failure is its whole sequence, one curl line a step.
        const curls = (f.sequence ?? [f.request]).map((req) =>
          curlLine(req.method, `${baseUrlOf(values)}${req.url}`, req.headers, req.body, secrets),
        )
        const again = replay(module, values, f, failed)
        const invariant = maskedText(f.invariant, secrets)
        io.out(`\n${f.route}: ${invariant}\n  ${curls.join('\n  ')}\n  replay: ${again}\n`)
      }
      if (values.auth !== undefined || values.header !== undefined)
        io.out('\nThe values of --auth and --header are shown as ***: give them again to replay.\n')
      reports(failed)
      return EXIT.problem
    }
    if (aimed?.found() === false) return nothing(' the app still has')
    reports(report)
    io.out(
      replayFile !== undefined
        ? `fuzz: replayed ${count(run.replay?.length ?? 0, 'failure')} of ${replayFile}, ${count(report.requests, 'request')}: none breaks an invariant now\n`
        : `fuzz: ${count(routeCount(report.routes), 'route')}, ${count(report.requests, 'request')}, no invariant broken (seed ${report.seed})\n`,
    )
    summary(report, io)
    return EXIT.ok
  },
}
