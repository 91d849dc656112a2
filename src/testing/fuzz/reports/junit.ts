import type { FuzzPhase } from '../fuzz-phase.js'
import type { FuzzedRoute, FuzzFailure, FuzzReport } from '../fuzz-report.js'
import { type Masking, maskedCurl, maskedText, placesOf, type ReportOptions } from './mask.js'

// JUnit XML as GitHub (dorny/test-reporter, mikepenz/action-junit-report), GitLab and Jenkins
// read it: one testsuite per route, one testcase per phase that ran (or per check), a failure
// element with the invariant and the curl line. Invariants name statuses, fields and rules (a
// 422's issue message is the app's); curl lines are the requests. Every credential is masked in
// both: the places that carry one, and the run's values wherever they appear.

// XML 1.0 has no way to write most control characters, even escaped: they are dropped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
const unwritable = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]/g

/** Text for an XML attribute or element, escaped. */
export function xmlText(s: string): string {
  return s
    .replace(unwritable, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\r/g, '&#13;')
}

const attrs = (pairs: Record<string, string | number>) =>
  Object.entries(pairs)
    .map(([k, v]) => ` ${k}="${xmlText(String(v))}"`)
    .join('')

interface Case {
  readonly name: string
  readonly requests: number
  readonly failure?: FuzzFailure
}

// The cases of a route: each phase it ran, and the phase of its failure (a check before any
// phase, such as the 401s of a secured route, is named by its phase).
function casesOf(route: FuzzedRoute, failures: readonly FuzzFailure[]): Case[] {
  const cases: Case[] = []
  for (const [phase, n] of Object.entries(route.phases)) {
    const failure = failures.find((f) => f.phase === (phase as FuzzPhase))
    cases.push({ name: phase, requests: n ?? 0, ...(failure && { failure }) })
  }
  for (const f of failures)
    if (!cases.some((c) => c.failure === f)) cases.push({ name: f.route, requests: 0, failure: f })
  if (cases.length === 0) cases.push({ name: 'requests', requests: route.requests })
  return cases
}

// A failure of the check across routes is named by its method and path: it belongs to 'methods'.
function failuresOf(route: FuzzedRoute, report: FuzzReport): FuzzFailure[] {
  const own = report.failures.filter((f) => f.route === route.route)
  if (route.route !== 'methods') return own
  const named = new Set(report.routes.map((r) => r.route))
  return report.failures.filter((f) => !named.has(f.route))
}

function testcase(route: string, c: Case, masking: Masking, options: ReportOptions): string {
  const open = `    <testcase${attrs({ classname: route, name: c.name, time: 0 })}`
  if (c.failure === undefined) return `${open}/>`
  const f = c.failure
  const invariant = maskedText(f.invariant, masking)
  const body = `${invariant}\n${maskedCurl(f, masking, options)}\nseed ${f.seed}, phase ${f.phase}`
  return [
    `${open}>`,
    `      <failure${attrs({ message: invariant, type: f.phase })}>${xmlText(body)}</failure>`,
    '    </testcase>',
  ].join('\n')
}

/**
 * The report of a `fuzzRoutes` run as JUnit XML: one testsuite per route, a testcase per phase
 * (or check) that ran, a `failure` with the broken invariant, the curl line and the seed; the
 * routes not fuzzed as skipped testcases. Credentials are masked (`***`) in curl lines and
 * invariants: the places that carry one, and each value the run sent there wherever it appears.
 * @param options more places of credentials to mask; default `{}`
 * @example await writeFile('fuzz.junit.xml', junitReport(report))
 */
export function junitReport(report: FuzzReport, options: ReportOptions = {}): string {
  const masking = placesOf(report, options)
  const suites: string[] = []
  let tests = 0
  for (const route of report.routes) {
    const cases = casesOf(route, failuresOf(route, report))
    const failed = cases.filter((c) => c.failure !== undefined).length
    tests += cases.length
    suites.push(
      [
        `  <testsuite${attrs({ name: route.route, tests: cases.length, failures: failed, errors: 0, skipped: 0, time: 0 })}>`,
        `    <properties><property${attrs({ name: 'requests', value: route.requests })}/><property${attrs({ name: 'seed', value: report.seed })}/></properties>`,
        ...cases.map((c) => testcase(route.route, c, masking, options)),
        '  </testsuite>',
      ].join('\n'),
    )
  }
  if (report.skipped.length > 0) {
    tests += report.skipped.length
    suites.push(
      [
        `  <testsuite${attrs({ name: 'not fuzzed', tests: report.skipped.length, failures: 0, errors: 0, skipped: report.skipped.length, time: 0 })}>`,
        ...report.skipped.map(
          (line) =>
            `    <testcase${attrs({ classname: 'not fuzzed', name: line, time: 0 })}><skipped${attrs({ message: line })}/></testcase>`,
        ),
        '  </testsuite>',
      ].join('\n'),
    )
  }
  const failures = report.failures.length
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: 'shapeguard fuzz', tests, failures, errors: 0, time: 0 })}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n')
}
