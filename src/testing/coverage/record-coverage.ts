import { optionError } from '../../shared/error-codes.js'
import {
  type CoverageReport,
  type CoverageReportOptions,
  coverageReport,
} from './coverage-report.js'
import { listen } from './probe.js'
import { keepWritten, writeRecords } from './record-file.js'
import { type CoverageRecords, emptyRecords } from './records.js'

/** Options of `recordCoverage`. */
export interface RecordCoverageOptions {
  /**
   * A folder this process keeps its records in while it runs (a file of its own, written again
   * within a quarter second of each change and at exit), for `readCoverage` or `shapeguard coverage`.
   */
  readonly dir?: string
}

/** What `recordCoverage` returns: the records so far, the report, a writer, and the stop. */
export interface Coverage {
  /** What was recorded so far, by route key; counts only, no request value. */
  readonly records: CoverageRecords
  /** The report of the app given to `recordCoverage` by the records so far. */
  report(options?: CoverageReportOptions): CoverageReport
  /** Writes the records to `file` as JSON (what `readCoverage` reads, under its file names). */
  write(file: string): void
  /** Stops recording (and writes the `dir` file a last time). */
  stop(): void
}

/**
 * Records, from now on, what every guarded request of the process exercises: by route
 * (`METHOD /path/:param`), the statuses and error codes answered, and the enum members, union
 * branches and optional fields of the validated request parts and of the response data. Only
 * names from the app and its schemas are kept, never a value the request or the answer held.
 * Off (before this call, and after `stop()`), a guarded request pays one property read.
 * @param app the app whose routes `report()` counts (optional with `dir`)
 * @example const coverage = recordCoverage(app); await request(app).post('/users').send(user); console.log(coverageTable(coverage.report()))
 */
export function recordCoverage(app?: unknown, options: RecordCoverageOptions = {}): Coverage {
  const { dir } = options
  if (dir !== undefined && (typeof dir !== 'string' || dir === ''))
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      'shapeguard: recordCoverage(): options.dir must be a folder path (a non-empty string)',
    )
  const records = emptyRecords()
  const unlisten = listen(records)
  const stopWriting = dir === undefined ? undefined : keepWritten(dir, records)
  let stopped = false
  return {
    records,
    report(reportOptions) {
      if (app === undefined)
        throw optionError(
          'SG_ERR_INVALID_OPTION',
          'shapeguard: coverage.report(): recordCoverage() was given no app: recordCoverage(app)',
        )
      return coverageReport(app, records, reportOptions)
    },
    write: (file) => writeRecords(file, records),
    stop() {
      if (stopped) return
      stopped = true
      unlisten()
      stopWriting?.()
    },
  }
}
