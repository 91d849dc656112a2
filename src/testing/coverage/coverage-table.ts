import {
  type CoverageCount,
  type CoverageReport,
  type Covered,
  coverageMetrics,
} from './coverage-report.js'
import { uncovered } from './uncovered.js'

const itemColumns = ['statuses', 'codes', 'enums', 'branches', 'optionals'] as const

const cell = (c: Covered<unknown>) =>
  c.declared.length === 0 ? '-' : `${c.covered.length}/${c.declared.length}`
const ratio = (c: CoverageCount) => `${c.covered}/${c.total}`
const percent = (c: CoverageCount) => `${c.percent.toFixed(1)}%`

function layout(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
  return rows
    .map((row) =>
      row
        .map((text, i) => (i === 0 ? text.padEnd(widths[i]!) : text.padStart(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}

/**
 * A report as text: one row per route (requests, then covered/declared statuses, codes, enum
 * members, union branches and optional fields; `-` where it declares none), the totals and their
 * percentages, the overall percentage, then what is not covered, route by route.
 * @example console.log(coverageTable(coverage.report()))
 */
export function coverageTable(report: CoverageReport): string {
  const { totals } = report
  const rows = [
    ['route', 'requests', ...itemColumns],
    ...report.routes.map((r) => [
      r.route,
      String(r.requests),
      ...itemColumns.map((m) => cell(r[m])),
    ]),
    [
      `total (${ratio(totals.routes)} routes)`,
      String(report.routes.reduce((n, r) => n + r.requests, 0)),
      ...itemColumns.map((m) => ratio(totals[m])),
    ],
    ['percent', percent(totals.routes), ...itemColumns.map((m) => percent(totals[m]))],
  ]
  const lines = [
    layout(rows),
    `overall: ${percent(report.overall)} (${report.overall.covered} of ${report.overall.total}: ${coverageMetrics.join(', ')})`,
  ]
  const missing = uncovered(report)
  if (missing.length > 0) {
    lines.push('', 'not covered:')
    let route: string | undefined
    for (const u of missing) {
      if (u.route !== route)
        lines.push(`  ${u.route}:${u.metric === 'routes' ? ' no request' : ''}`)
      route = u.route
      if (u.metric === 'routes') continue
      const what = u.metric === 'statuses' ? 'status' : u.metric === 'codes' ? 'code' : ''
      lines.push(`    ${what === '' ? u.item : `${what} ${u.item}`}`)
    }
  }
  if (report.unknown.length > 0)
    lines.push('', `recorded for routes the app does not have: ${report.unknown.join(', ')}`)
  return `${lines.join('\n')}\n`
}
