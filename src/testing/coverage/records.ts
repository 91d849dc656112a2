import { isObject } from '../../shared/is-object.js'

// What recording keeps: by route (`POST /users/:id`), counts of requests, statuses, error codes
// and the items of coverage-items.ts. Every key comes from the app (its route patterns, its codes)
// or from its schemas, never from a request: records can be written to disk and shared.

/** What was seen of one route. */
export interface RouteRecord {
  requests: number
  /** Answers by status (`"201"`). */
  readonly statuses: Record<string, number>
  /** Error answers by code. */
  readonly codes: Record<string, number>
  /** Requests and answers by item exercised (`body.role = "admin"`). */
  readonly items: Record<string, number>
}

/** Recorded coverage: by route key (`METHOD /path/:param`), what was seen. */
export interface CoverageRecords {
  readonly routes: Record<string, RouteRecord>
}

// Bounds on what one process keeps: the keys are the app's, so these are never reached by an
// honest app; a route table built at run time from requests cannot grow them without end.
const ROUTES = 5000
const KEYS = 2000

/** An empty record set. */
export const emptyRecords = (): CoverageRecords => ({ routes: Object.create(null) })

/** The record of `key`, made on first use; undefined once the bound on routes is reached. */
export function routeRecord(records: CoverageRecords, key: string): RouteRecord | undefined {
  const found = records.routes[key]
  if (found !== undefined) return found
  if (Object.keys(records.routes).length >= ROUTES) return undefined
  const made: RouteRecord = {
    requests: 0,
    statuses: Object.create(null),
    codes: Object.create(null),
    items: Object.create(null),
  }
  records.routes[key] = made
  return made
}

/** Adds `n` to `counts[key]`, unless the table is full and the key new. */
export function bump(counts: Record<string, number>, key: string, n = 1): void {
  const was = counts[key]
  if (was !== undefined) counts[key] = was + n
  else if (Object.keys(counts).length < KEYS) counts[key] = n
}

function mergeCounts(into: Record<string, number>, from: unknown): void {
  if (!isObject(from)) return
  for (const [key, n] of Object.entries(from))
    if (typeof n === 'number' && Number.isSafeInteger(n) && n > 0) bump(into, key, n)
}

/**
 * Adds `from` (records, or what a records file held: anything not in their shape is skipped)
 * into `into`.
 */
export function mergeRecords(into: CoverageRecords, from: unknown): void {
  const routes = isObject(from) && isObject(from.routes) ? from.routes : {}
  for (const [key, value] of Object.entries(routes)) {
    if (!isObject(value)) continue
    const record = routeRecord(into, key)
    if (record === undefined) return
    const requests = value.requests
    if (typeof requests === 'number' && Number.isSafeInteger(requests) && requests > 0)
      record.requests += requests
    mergeCounts(record.statuses, value.statuses)
    mergeCounts(record.codes, value.codes)
    mergeCounts(record.items, value.items)
  }
}
