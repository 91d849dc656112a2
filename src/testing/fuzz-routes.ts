import { toAdapter } from '../adapters/resolve.js'
import { generateOpenAPI } from '../openapi/generate/generate-openapi.js'
import type { OpenAPIDocument } from '../openapi/generate/types.js'
import { type DiscoveredRoute, discoverRoutes } from '../runtime/router/discover-routes.js'
import { checkFuzzOptions, type FuzzRoutesOptions } from './fuzz-options.js'
import { brokenInvariant, type RouteChecks } from './invariants.js'
import { fastCheck } from './load-fast-check.js'
import { errorEnvelopeCheck, operationOf } from './response-check.js'
import { type FuzzRequest, routeRequests } from './route-requests.js'
import { type Listener, listen } from './send-request.js'
import { curlLine } from './wire.js'

/** One route the fuzzer sent requests to. */
export interface FuzzedRoute {
  /** `METHOD /path` in Express's `:param` syntax, as `routes` takes it. */
  readonly route: string
  readonly requests: number
  /** Kinds of request it could not generate for this route, and why. */
  readonly notes: readonly string[]
}

/** One broken invariant, with the shrunk request that breaks it. */
export interface FuzzFailure {
  readonly route: string
  /** The invariant, in words (statuses, fields, rules; no value of the answer). */
  readonly invariant: string
  readonly request: FuzzRequest
  /** The request as a `curl` command line against `baseUrl`. */
  readonly curl: string
  readonly seed: number
}

/** What `fuzzRoutes` did: the routes, how many requests, what broke (empty when it resolves). */
export interface FuzzReport {
  readonly routes: readonly FuzzedRoute[]
  readonly requests: number
  readonly failures: readonly FuzzFailure[]
  readonly seed: number
  /** What route discovery could not read (RegExp paths, sub-applications). */
  readonly skipped: readonly string[]
}

/** The error `fuzzRoutes` rejects with: the report rides along. */
export interface FuzzError extends Error {
  readonly report: FuzzReport
}

class InvariantBroken extends Error {}

const keyOf = (r: DiscoveredRoute) => `${r.method.toUpperCase()} ${r.path}`

function selected(routes: readonly DiscoveredRoute[], pick: FuzzRoutesOptions['routes']) {
  if (pick === undefined) return routes
  if (typeof pick === 'function')
    return routes.filter((r) => pick({ method: r.method.toUpperCase(), path: r.path }))
  const wanted = new Set(
    pick.map((k) => k.replace(/^(\S+)\s+/, (_m, method: string) => `${method.toUpperCase()} `)),
  )
  const known = new Set(routes.map(keyOf))
  for (const key of wanted)
    if (!known.has(key))
      throw new TypeError(`fuzzRoutes(): options.routes names ${key}, which the app does not have`)
  return routes.filter((r) => wanted.has(keyOf(r)))
}

function report(failures: readonly FuzzFailure[], r: FuzzReport): string {
  const lines = [
    `fuzzRoutes: ${failures.length} of ${r.routes.length} routes broke an invariant (seed ${r.seed}, ${r.requests} requests)`,
  ]
  for (const f of failures) {
    lines.push(
      '',
      `${f.route}: ${f.invariant}`,
      `  ${f.curl}`,
      `  replay: fuzzRoutes(app, { seed: ${f.seed}, routes: [${JSON.stringify(f.route)}] })`,
    )
  }
  return lines.join('\n')
}

/**
 * Fuzzes the `handle()`/`validate()` routes of an Express app (nested routers included): requests
 * generated from each route's schemas — valid, invalid (one rule broken) and hostile — are sent
 * in process over a listener on 127.0.0.1, and every answer is held to the invariants: no 5xx;
 * a well-formed envelope; valid requests never 422; invalid ones exactly 422 naming the broken
 * field; success data matching the response schema with nothing undeclared; only statuses the
 * OpenAPI document lists. Resolves with a report; rejects with an Error whose message holds each
 * shrunk request as a `curl` line and the seed. Needs the optional peer `fast-check`.
 * @param options default `{ runs: 100 }` per route, a random seed
 * @example await fuzzRoutes(app, { runs: 50, seed: 42 })
 */
export async function fuzzRoutes(
  app: unknown,
  options: FuzzRoutesOptions = {},
): Promise<FuzzReport> {
  const o = checkFuzzOptions(options)
  const fc = fastCheck()
  const discovery = discoverRoutes(app)
  const doc: OpenAPIDocument =
    o.openapi ?? generateOpenAPI({ title: 'fuzzRoutes', version: '0', app, onWarning: () => {} })
  const errorEnvelope = errorEnvelopeCheck(doc)
  const routes = selected(discovery.routes, o.routes)
  const listener: Listener = await listen(app as never)
  const fuzzed: FuzzedRoute[] = []
  const failures: FuzzFailure[] = []
  let total = 0
  try {
    for (const r of routes) {
      const key = keyOf(r)
      const { arbitrary, notes } = routeRequests(r.method, r.path, r.route, { headers: o.headers })
      const responseSchema = r.route.response ?? r.route.sends
      const checks: RouteChecks = {
        operation: operationOf(doc, r.method, r.path),
        allowed: new Set([...(o.statuses['*'] ?? []), ...(o.statuses[key] ?? [])]),
        errorEnvelope,
        response: responseSchema === undefined ? undefined : toAdapter(responseSchema).ir,
      }
      const allNotes: string[] = checks.operation
        ? [...notes]
        : [...notes, 'not in the OpenAPI document: statuses and envelopes not checked']
      let requests = 0
      const attempt = async (req: FuzzRequest) => {
        requests++
        const answer = await listener.send(req.method, req.url, req.headers, req.body)
        return brokenInvariant(req, answer, checks)
      }
      if (arbitrary !== undefined) {
        const details = await fc.check(
          fc.asyncProperty(arbitrary, async (req) => {
            const broken = await attempt(req)
            if (broken !== undefined) throw new InvariantBroken(broken)
          }),
          { numRuns: o.runs, seed: o.seed },
        )
        if (details.failed) {
          const req = details.counterexample?.[0] as FuzzRequest | undefined
          const error = details.errorInstance
          if (req === undefined) {
            // Not a request that failed: generating one did (a refinement that rejects too much).
            allNotes.push(`stopped: ${error instanceof Error ? error.message : String(error)}`)
          } else {
            const invariant =
              error instanceof InvariantBroken
                ? error.message
                : `the request threw: ${String(error)}`
            failures.push({
              route: key,
              invariant,
              request: req,
              curl: curlLine(req.method, `${o.baseUrl}${req.url}`, req.headers, req.body),
              seed: o.seed,
            })
          }
        }
      }
      total += requests
      fuzzed.push({ route: key, requests, notes: allNotes })
    }
  } finally {
    await listener.close()
  }
  const result: FuzzReport = {
    routes: fuzzed,
    requests: total,
    failures,
    seed: o.seed,
    skipped: discovery.skipped,
  }
  if (failures.length > 0) {
    const error = new Error(report(failures, result)) as Error & { report: FuzzReport }
    error.report = result
    throw error
  }
  return result
}
