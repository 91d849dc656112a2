import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { CoverageReport, FuzzFailure, FuzzReport } from 'shapeguard/testing'
import type { SecretPlaces } from '../../shared/credential-places.js'
import type { TestingEntry } from '../entries.js'
import type { Io } from '../io.js'
import { UsageError } from '../usage-error.js'

// The files `--report` writes (`--report-dir`), the failures `--replay` reads back, and the
// coverage report `--uncovered` points the run at.

export const reportFormats = ['junit', 'har', 'json'] as const
export type ReportFormat = (typeof reportFormats)[number]

const fileNames: Record<ReportFormat, string> = {
  junit: 'fuzz.junit.xml',
  har: 'fuzz.har',
  json: 'fuzz.json',
}

/** The default of `--report-dir`. */
export const defaultReportDir = 'shapeguard-reports'

/** `--report junit,har,json`: known formats, each once. */
export function formatsOf(names: readonly string[]): ReportFormat[] {
  for (const name of names)
    if (!(reportFormats as readonly string[]).includes(name))
      throw new UsageError(
        `--report takes ${reportFormats.join(', ')} (comma-separated), not ${name}`,
      )
  return [...new Set(names)] as ReportFormat[]
}

/** Writes each asked report of the run into `dir` (made if missing); says where on stdout. */
export function writeReports(
  report: FuzzReport,
  formats: readonly ReportFormat[],
  dir: string,
  testing: TestingEntry,
  options: { io: Io; baseUrl: string; secrets: SecretPlaces },
): void {
  if (formats.length === 0) return
  const { io, baseUrl } = options
  const secrets = {
    headers: [...options.secrets.headers],
    query: [...options.secrets.query],
    cookies: [...options.secrets.cookies],
  }
  const at = resolve(io.cwd, dir)
  mkdirSync(at, { recursive: true })
  const texts: Record<ReportFormat, () => string> = {
    junit: () => testing.junitReport(report, { secrets, baseUrl }),
    har: () => testing.harReport(report, { secrets, baseUrl }),
    json: () => testing.jsonReport(report, { secrets, baseUrl }),
  }
  for (const format of formats) {
    const file = join(at, fileNames[format])
    writeFileSync(file, texts[format]())
    io.out(`  report: ${join(dir, fileNames[format])}\n`)
  }
}

// A file a flag names, read from the working directory; one it cannot read is a usage error.
function readFlagFile(flag: string, file: string, io: Io): string {
  try {
    return readFileSync(resolve(io.cwd, file), 'utf8')
  } catch {
    throw new UsageError(`${flag}: cannot read ${file}`)
  }
}

/** The failures of a JSON report (`--replay FILE`); a file that is not one is a usage error. */
export function failuresFrom(file: string, io: Io, testing: TestingEntry): FuzzFailure[] {
  const text = readFlagFile('--replay', file, io)
  try {
    return testing.readJsonReport(text).failures
  } catch (error) {
    const why = (error as Error).message.replace(/^shapeguard: readJsonReport\(\): /, '')
    throw new UsageError(`--replay: ${file}: ${why}`)
  }
}

const coverageMetrics = ['statuses', 'codes', 'enums', 'branches', 'optionals'] as const

// What uncovered() reads of a route of a coverage report: its key, its requests, and each
// metric's missing items.
function isRouteCoverage(value: unknown): value is CoverageReport['routes'][number] {
  if (typeof value !== 'object' || value === null) return false
  const route = value as Record<string, unknown>
  return (
    typeof route.route === 'string' &&
    typeof route.requests === 'number' &&
    coverageMetrics.every((metric) => {
      const counts = route[metric] as { missing?: unknown } | null | undefined
      return typeof counts === 'object' && counts !== null && Array.isArray(counts.missing)
    })
  )
}

/**
 * The route keys a coverage report (`shapeguard coverage --json FILE`) lists anything uncovered
 * for (`--uncovered FILE`); a file that is not one is a usage error.
 */
export function uncoveredRoutes(file: string, io: Io, testing: TestingEntry): Set<string> {
  const text = readFlagFile('--uncovered', file, io)
  let report: unknown
  try {
    report = JSON.parse(text)
  } catch {
    throw new UsageError(`--uncovered: ${file}: not JSON`)
  }
  const routes = (report as { routes?: unknown } | null)?.routes
  if (!Array.isArray(routes) || !routes.every(isRouteCoverage))
    throw new UsageError(
      `--uncovered: ${file}: not a coverage report (shapeguard coverage --json ${file} writes one)`,
    )
  return new Set(testing.uncovered(report as CoverageReport).map((item) => item.route))
}
