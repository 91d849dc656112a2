import type { CoverageMetric, CoverageReport } from './coverage-report.js'

/** Minimum percentages by metric, and `overall`. */
export type CoverageThresholds = Partial<Readonly<Record<CoverageMetric | 'overall', number>>>

/**
 * The thresholds a report falls short of, one line each (`statuses 41.6% < 80%`); empty when it
 * meets them all.
 * @example belowThresholds(report, { routes: 100, statuses: 80 }) // ['statuses 41.6% < 80%']
 */
export function belowThresholds(report: CoverageReport, min: CoverageThresholds): string[] {
  const lines: string[] = []
  for (const [metric, wanted] of Object.entries(min)) {
    if (wanted === undefined) continue
    const count = metric === 'overall' ? report.overall : report.totals[metric as CoverageMetric]
    if (count !== undefined && count.percent < wanted)
      lines.push(`${metric} ${count.percent.toFixed(1)}% < ${wanted}%`)
  }
  return lines
}
