import { randomUUID } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type CoverageRecords, emptyRecords, mergeRecords } from './records.js'

// A process that records into a folder (`SHAPEGUARD_COVERAGE`, a test runner's worker) writes
// its own file there: every quarter second when its records changed, and once more,
// synchronously, when it exits; a runner that kills its workers loses at most that moment. Each write replaces the
// file whole (a rename), so a reader never sees half of one.

const PREFIX = 'shapeguard-coverage-'
const FORMAT = 1
// A records file is the app's route keys and schema names: far below this unless corrupt.
const MAX_FILE_BYTES = 32 * 1024 * 1024

/** The JSON text of `records`, as `write` and the records files hold it. */
export function recordsJson(records: CoverageRecords): string {
  return `${JSON.stringify({ shapeguardCoverage: FORMAT, routes: records.routes }, null, 1)}\n`
}

/** Writes `records` to `file` whole (through a temporary file renamed over it). */
export function writeRecords(file: string, records: CoverageRecords): void {
  const part = `${file}.${randomUUID()}.part`
  writeFileSync(part, recordsJson(records))
  renameSync(part, file)
}

/**
 * Keeps `records` written to a file of their own in `dir` while the process runs; the function
 * returned writes them a last time and stops.
 */
export function keepWritten(dir: string, records: CoverageRecords): () => void {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${PREFIX}${process.pid}-${randomUUID()}.json`)
  // Written when they changed: a process that records nothing (npm itself, under the command's
  // NODE_OPTIONS) writes no file, and a quiet one no more than it did.
  let written = recordsJson(emptyRecords())
  const flush = () => {
    try {
      const text = recordsJson(records)
      if (text === written) return
      const part = `${file}.${randomUUID()}.part`
      writeFileSync(part, text)
      renameSync(part, file)
      written = text
    } catch {
      // A folder gone (removed under the run) loses this process's records, not the run.
    }
  }
  const timer = setInterval(flush, 250)
  timer.unref()
  process.on('exit', flush)
  return () => {
    clearInterval(timer)
    process.off('exit', flush)
    flush()
  }
}

/**
 * The records of every process that recorded into `dir`, merged; files of another kind are
 * left alone, and a file not in the records' shape adds nothing.
 * @example coverageReport(app, readCoverage('.coverage/shapeguard'))
 */
export function readCoverage(dir: string): CoverageRecords {
  const records = emptyRecords()
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(PREFIX) || !name.endsWith('.json')) continue
    let text: string
    try {
      const data = readFileSync(join(dir, name))
      if (data.length > MAX_FILE_BYTES) continue
      text = data.toString('utf8')
    } catch {
      continue
    }
    try {
      const parsed: unknown = JSON.parse(text)
      if ((parsed as { shapeguardCoverage?: unknown }).shapeguardCoverage === FORMAT)
        mergeRecords(records, parsed)
    } catch {
      // A file cut short (its process killed as it wrote, before the rename): nothing to add.
    }
  }
  return records
}
