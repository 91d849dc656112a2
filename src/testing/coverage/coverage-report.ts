import { generateOpenAPI } from '../../openapi/generate/generate-openapi.js'
import type { OpenAPIDocument } from '../../openapi/generate/types.js'
import { routeErrorCodes } from '../../runtime/pipeline/declared-errors.js'
import { discoverRoutes } from '../../runtime/pipeline/discover-routes.js'
import { isObject } from '../../shared/is-object.js'
import { documentedPath } from '../fuzz/response-check.js'
import { type ItemKind, itemsOf } from './coverage-items.js'
import type { CoverageRecords, RouteRecord } from './records.js'
import { shapesOf } from './route-shapes.js'

/** What coverage counts: routes, statuses, error codes, enum members, union branches, optional fields. */
export type CoverageMetric = 'routes' | 'statuses' | 'codes' | ItemKind

/** Every metric, in the order the table shows them. */
export const coverageMetrics: readonly CoverageMetric[] = [
  'routes',
  'statuses',
  'codes',
  'enums',
  'branches',
  'optionals',
]

/** Covered of total, and the percentage (one decimal, rounded down; 100 when there is none). */
export interface CoverageCount {
  readonly covered: number
  readonly total: number
  readonly percent: number
}

/** What a route declares of one metric, what the tests covered of it, what they did not. */
export interface Covered<T> {
  readonly declared: readonly T[]
  readonly covered: readonly T[]
  readonly missing: readonly T[]
  /** Seen but not declared: a status the document does not list, a code the route's `errors` do not. */
  readonly others: readonly T[]
}

/** One route's coverage. */
export interface RouteCoverage {
  /** `METHOD /path/:param`, as `fuzzRoutes({ routes })` takes it. */
  readonly route: string
  readonly requests: number
  /** Against the statuses the OpenAPI document lists for the operation. */
  readonly statuses: Covered<number>
  /** Against the route's `errors`; `others` are the codes it answered beyond them (the registry's). */
  readonly codes: Covered<string>
  readonly enums: Covered<string>
  readonly branches: Covered<string>
  readonly optionals: Covered<string>
}

/** What `coverageReport` found: by route, the totals by metric, and overall. */
export interface CoverageReport {
  readonly routes: readonly RouteCoverage[]
  readonly totals: Readonly<Record<CoverageMetric, CoverageCount>>
  readonly overall: CoverageCount
  /** Recorded route keys the app has no route for (another app of the tests, a renamed route). */
  readonly unknown: readonly string[]
}

/** Options of `coverageReport` and `Coverage.report()`. */
export interface CoverageReportOptions {
  /** The document whose statuses count; default `generateOpenAPI({ app })`. */
  readonly openapi?: OpenAPIDocument
}

/** `covered` of `total` with its percentage. */
export function countOf(covered: number, total: number): CoverageCount {
  return { covered, total, percent: total === 0 ? 100 : Math.floor((covered / total) * 1000) / 10 }
}

function covered<T>(declared: readonly T[], seen: readonly T[]): Covered<T> {
  const was = new Set(seen)
  const listed = new Set(declared)
  return {
    declared,
    covered: declared.filter((d) => was.has(d)),
    missing: declared.filter((d) => !was.has(d)),
    others: seen.filter((s) => !listed.has(s)),
  }
}

function documentedStatuses(doc: OpenAPIDocument, method: string, path: string): number[] {
  const key = documentedPath(doc, path)
  const operation = key === undefined ? undefined : doc.paths[key]?.[method]
  const responses = (operation as { responses?: unknown } | undefined)?.responses
  if (!isObject(responses)) return []
  return Object.keys(responses)
    .filter((s) => /^[1-5]\d\d$/.test(s))
    .map(Number)
    .sort((a, b) => a - b)
}

function routeCoverage(
  key: string,
  declared: { statuses: number[]; codes: string[]; items: Map<string, ItemKind> },
  record: RouteRecord | undefined,
): RouteCoverage {
  const seenItems = new Set(Object.keys(record?.items ?? {}))
  const items = (kind: ItemKind) => {
    const list = [...declared.items].filter(([, k]) => k === kind).map(([item]) => item)
    return covered(
      list,
      [...seenItems].filter((item) => declared.items.get(item) === kind),
    )
  }
  const statuses = Object.keys(record?.statuses ?? {})
    .map(Number)
    .sort((a, b) => a - b)
  return {
    route: key,
    requests: record?.requests ?? 0,
    statuses: covered(declared.statuses, statuses),
    codes: covered(declared.codes, Object.keys(record?.codes ?? {}).sort()),
    enums: items('enums'),
    branches: items('branches'),
    optionals: items('optionals'),
  }
}

/**
 * The coverage of an app's routes by what was recorded (`recordCoverage`, `readCoverage`): per
 * `handle()`/`validate()` route, the statuses its OpenAPI operation lists, the codes of its
 * `errors`, and its schemas' enum members, union branches and optional fields (request and
 * response), each covered or not; the totals by metric and overall.
 * @example coverageTable(coverageReport(app, readCoverage('.coverage')))
 */
export function coverageReport(
  app: unknown,
  records: CoverageRecords,
  options: CoverageReportOptions = {},
): CoverageReport {
  const doc =
    options.openapi ??
    generateOpenAPI({ title: 'coverage', version: '0.0.0', app, onWarning: () => {} })
  const routes: RouteCoverage[] = []
  const seen = new Set<string>()
  for (const r of discoverRoutes(app).routes) {
    const key = `${r.method.toUpperCase()} ${r.path}`
    if (seen.has(key)) continue
    seen.add(key)
    const shapes = shapesOf(r.route)
    const items = new Map<string, ItemKind>()
    for (const [part, ir] of shapes.parts) for (const [i, k] of itemsOf(ir, part)) items.set(i, k)
    if (shapes.response !== undefined)
      for (const [i, k] of itemsOf(shapes.response, 'response')) items.set(i, k)
    const declared = {
      statuses: documentedStatuses(doc, r.method, r.path),
      codes: [...new Set(routeErrorCodes(r.route.errors, key))],
      items,
    }
    routes.push(routeCoverage(key, declared, records.routes[key]))
  }
  const totals = Object.fromEntries(
    coverageMetrics.map((metric) => {
      if (metric === 'routes')
        return [metric, countOf(routes.filter((r) => r.requests > 0).length, routes.length)]
      const sum = (f: (c: Covered<unknown>) => number) =>
        routes.reduce((n, r) => n + f(r[metric] as Covered<unknown>), 0)
      return [
        metric,
        countOf(
          sum((c) => c.covered.length),
          sum((c) => c.declared.length),
        ),
      ]
    }),
  ) as Record<CoverageMetric, CoverageCount>
  const all = Object.values(totals)
  return {
    routes,
    totals,
    overall: countOf(
      all.reduce((n, c) => n + c.covered, 0),
      all.reduce((n, c) => n + c.total, 0),
    ),
    unknown: Object.keys(records.routes).filter((key) => !seen.has(key)),
  }
}
