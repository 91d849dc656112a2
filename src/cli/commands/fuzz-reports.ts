import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { FuzzFailure, FuzzReport } from 'shapeguard/testing'
import type { SecretPlaces } from '../../shared/credential-places.js'
import type { TestingEntry } from '../entries.js'
import type { Io } from '../io.js'
import { UsageError } from '../usage-error.js'

// The files `--report` writes (`--report-dir`), and the failures `--replay` reads back.

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

/** The failures of a JSON report (`--replay FILE`); a file that is not one is a usage error. */
export function failuresFrom(file: string, io: Io, testing: TestingEntry): FuzzFailure[] {
  let text: string
  try {
    text = readFileSync(resolve(io.cwd, file), 'utf8')
  } catch {
    throw new UsageError(`--replay: cannot read ${file}`)
  }
  try {
    return testing.readJsonReport(text).failures
  } catch (error) {
    const why = (error as Error).message.replace(/^shapeguard: readJsonReport\(\): /, '')
    throw new UsageError(`--replay: ${file}: ${why}`)
  }
}
