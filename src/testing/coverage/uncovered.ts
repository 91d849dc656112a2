import type { CoverageMetric, CoverageReport } from './coverage-report.js'

/** One thing the recorded tests did not exercise. */
export interface UncoveredItem {
  /** `METHOD /path/:param`, as `fuzzRoutes({ routes })` takes it. */
  readonly route: string
  readonly metric: CoverageMetric
  /** The route key (metric `routes`), the status, the code or the schema item. */
  readonly item: string
}

/**
 * Everything a report's routes declare that was not covered: routes no request reached, then by
 * route its statuses, codes, enum members, union branches and optional fields. Point the fuzzer
 * at them: `fuzzRoutes(app, { routes: [...new Set(uncovered(report).map((u) => u.route))] })`.
 * @example uncovered(report) // [{ route: 'POST /users', metric: 'statuses', item: '409' }, …]
 */
export function uncovered(report: CoverageReport): UncoveredItem[] {
  const list: UncoveredItem[] = []
  for (const r of report.routes) {
    if (r.requests === 0) list.push({ route: r.route, metric: 'routes', item: r.route })
    for (const status of r.statuses.missing)
      list.push({ route: r.route, metric: 'statuses', item: String(status) })
    for (const metric of ['codes', 'enums', 'branches', 'optionals'] as const)
      for (const item of r[metric].missing) list.push({ route: r.route, metric, item })
  }
  return list
}
