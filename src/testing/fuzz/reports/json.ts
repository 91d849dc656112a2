import { isObject } from '../../../shared/is-object.js'
import type { FuzzPhase } from '../fuzz-phase.js'
import type { FuzzFailure, FuzzReport, StatefulSteps } from '../fuzz-report.js'
import type { FuzzRequest } from '../fuzz-request.js'
import { failureOf, integer, notReport } from './json-read.js'
import { maskedCurl, maskedRequest, maskedText, placesOf, type ReportOptions } from './mask.js'

// The JSON report: the run as data (routes, failures with their requests, seed, skipped, the
// requests of each phase), credentials masked, and what `--replay` reads back.

const FORMAT = 'shapeguard-fuzz-report'

// A request as JSON: a binary body (an upload) in base64.
function requestJson(req: FuzzRequest): Record<string, unknown> {
  const { body, ...rest } = req
  if (Buffer.isBuffer(body))
    return { ...rest, body: body.toString('base64'), bodyEncoding: 'base64' }
  return body === undefined ? rest : { ...rest, body }
}

/** The requests each phase sent, over every route. */
function phaseCounts(report: FuzzReport): Partial<Record<FuzzPhase, number>> {
  const counts: Partial<Record<FuzzPhase, number>> = {}
  for (const route of report.routes)
    for (const [phase, n] of Object.entries(route.phases) as [FuzzPhase, number][])
      counts[phase] = (counts[phase] ?? 0) + n
  return counts
}

/**
 * The report of a `fuzzRoutes` run as JSON text: its routes, failures with their requests (and a
 * stateful failure's sequence), seed, skipped routes and requests per phase, every credential
 * masked (`***`); what `shapeguard fuzz --replay` reads back.
 * @param options more places of credentials to mask; default `{}`
 * @example await writeFile('fuzz.json', jsonReport(error.report))
 */
export function jsonReport(report: FuzzReport, options: ReportOptions = {}): string {
  const places = placesOf(report, options)
  const shown = (req: FuzzRequest) => requestJson(maskedRequest(req, places))
  const commands = (s: StatefulSteps) => ({
    resource: s.resource,
    steps: s.steps.map((step) => ({
      ...step,
      request: shown(step.request),
      ...(step.list && { list: shown(step.list) }),
    })),
  })
  const failures = report.failures.map((f) => ({
    ...f,
    invariant: maskedText(f.invariant, places),
    request: shown(f.request),
    curl: maskedCurl(f, places, options),
    ...(f.sequence && { sequence: f.sequence.map(shown) }),
    ...(f.stateful && { stateful: commands(f.stateful) }),
  }))
  const json = {
    format: FORMAT,
    version: 1,
    seed: report.seed,
    requests: report.requests,
    phases: phaseCounts(report),
    routes: report.routes,
    failures,
    skipped: report.skipped,
  }
  return `${JSON.stringify(json, null, 2)}\n`
}

/**
 * The failures of a JSON report `jsonReport` wrote, requests as they were sent (masked credentials
 * stay masked: give them to the replay again).
 * @throws SG_ERR_INVALID_OPTION when the text is not such a report, or a field of a failure is not
 *   what `jsonReport` writes (the message names the field's JSON path, never its value)
 */
export function readJsonReport(text: string): { seed: number; failures: FuzzFailure[] } {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw notReport('not JSON')
  }
  if (!isObject(json) || json.format !== FORMAT || !Array.isArray(json.failures))
    throw notReport(`not a report of shapeguard fuzz --report json (no "format": "${FORMAT}")`)
  const failures = json.failures.map((f: unknown, i: number) => failureOf(f, `failures[${i}]`))
  return { seed: integer(json.seed, 'seed'), failures }
}
