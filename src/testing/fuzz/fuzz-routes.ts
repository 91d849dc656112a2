import { toAdapter } from '../../adapters/resolve.js'
import { generateOpenAPI } from '../../openapi/generate/generate-openapi.js'
import type { OpenAPIDocument } from '../../openapi/generate/types.js'
import type { ResolvedConfig } from '../../runtime/core/config.js'
import { type GuardLimits, resolveLimits } from '../../runtime/guards/limits.js'
import { type DiscoveredRoute, discoverRoutes } from '../../runtime/pipeline/discover-routes.js'
import { curlLine } from '../../shared/curl-line.js'
import { type EnvelopeNames, envelopeNames } from '../../shared/envelope-shape.js'
import { optionError, unprefixed } from '../../shared/error-codes.js'
import { fastCheck } from '../load-fast-check.js'
import {
  checkFuzzOptions,
  type FuzzRoutesOptions,
  type ResolvedFuzzOptions,
} from './fuzz-options.js'
import type { FuzzRequest } from './fuzz-request.js'
import { brokenInvariant, type RouteChecks } from './invariants.js'
import { silenceLogs } from './quiet-logs.js'
import { type ErrorAnswerCheck, errorAnswerCheck, operationOf } from './response-check.js'
import { routeRequests } from './route-requests.js'
import { type Listener, listen } from './send-request.js'

/** One route the fuzzer sent requests to. */
export interface FuzzedRoute {
  /** `METHOD /path` in Express's `:param` syntax, as `routes` takes it. */
  readonly route: string
  readonly requests: number
  /**
   * What it could not generate for this route and why (a kind of request, a value past the guards'
   * limits), and how many answers were the route's own 429.
   */
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
  /**
   * What was not fuzzed, one line each: what route discovery could not read (RegExp paths,
   * sub-applications), and each route no request could be generated for, with why (`POST /notes:
   * body.text: every valid string has at least 100000 characters, past the guards' …`).
   */
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
      throw optionError(
        'SG_ERR_UNKNOWN_NAME',
        `shapeguard: fuzzRoutes(): options.routes names ${key}, which the app does not have`,
      )
  return routes.filter((r) => wanted.has(keyOf(r)))
}

const configOf = (app: unknown): ResolvedConfig | undefined =>
  (app as { locals?: { shapeguard?: ResolvedConfig } }).locals?.shapeguard

/** The guard limits the app's shapeguard() left on `app.locals`, once it has seen a request. */
const appLimits = (app: unknown): GuardLimits | undefined => configOf(app)?.validation.limits

/** The secret the app's signed cookies are signed with (the first of its secrets), once it is there. */
const appSecret = (app: unknown): string | undefined => configOf(app)?.cookies?.secrets[0]

/**
 * shapeguard() leaves its configuration on the app with the first request it sees: one OPTIONS
 * request at the first route's path gets it there before any request is generated, without
 * running a handler. Its answer is not looked at.
 */
async function reachShapeguard(
  app: unknown,
  listener: Listener,
  first: DiscoveredRoute | undefined,
  headers: Readonly<Record<string, string>>,
): Promise<void> {
  if (first === undefined || appLimits(app) !== undefined) return
  const path = first.path.replace(/:[A-Za-z0-9_$]+/g, '1')
  await listener.send('OPTIONS', path, headers).catch(() => {})
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

/** What one route's fuzzing needs of the run. */
interface Run {
  readonly o: ResolvedFuzzOptions
  readonly doc: OpenAPIDocument
  readonly errorAnswer: ErrorAnswerCheck
  readonly listener: Listener
  readonly app: unknown
  readonly envelope: EnvelopeNames
}

/** Fuzzes one route: its requests, its notes, and its shrunk failure if one broke an invariant. */
async function fuzzRoute(
  r: DiscoveredRoute,
  { o, doc, errorAnswer, listener, app, envelope }: Run,
): Promise<{ route: FuzzedRoute; failure?: FuzzFailure }> {
  const fc = fastCheck()
  const key = keyOf(r)
  const limits = resolveLimits(appLimits(app), r.route.limits)
  const { arbitrary, notes } = routeRequests(r.method, r.path, r.route, {
    headers: o.headers,
    limits,
    secret: appSecret(app),
  })
  const responseSchema = r.route.response ?? r.route.sends
  const checks: RouteChecks = {
    operation: operationOf(doc, r.method, r.path),
    allowed: new Set([...(o.statuses['*'] ?? []), ...(o.statuses[key] ?? [])]),
    errorAnswer,
    response: responseSchema === undefined ? undefined : toAdapter(responseSchema).ir,
    rateLimited: r.route.rateLimit !== undefined,
    envelope,
  }
  const allNotes: string[] = checks.operation
    ? [...notes]
    : [...notes, 'not in the OpenAPI document: statuses and envelopes not checked']
  let requests = 0
  let limited = 0
  let failure: FuzzFailure | undefined
  if (arbitrary !== undefined) {
    const details = await fc.check(
      fc.asyncProperty(arbitrary, async (req) => {
        requests++
        const answer = await listener.send(req.method, req.url, req.headers, req.body)
        if (answer.status === 429 && checks.rateLimited) limited++
        const broken = brokenInvariant(req, answer, checks)
        if (broken !== undefined) throw new InvariantBroken(broken)
      }),
      { numRuns: o.runs, seed: o.seed },
    )
    const req = details.counterexample?.[0] as FuzzRequest | undefined
    const error = details.errorInstance
    if (details.failed && req === undefined) {
      // Not a request that failed: generating one did (a refinement that rejects too much).
      allNotes.push(
        `stopped: ${error instanceof Error ? unprefixed(error.message) : String(error)}`,
      )
    } else if (details.failed && req !== undefined) {
      failure = {
        route: key,
        invariant:
          error instanceof InvariantBroken ? error.message : `the request threw: ${String(error)}`,
        request: req,
        curl: curlLine(req.method, `${o.baseUrl}${req.url}`, req.headers, req.body),
        seed: o.seed,
      }
    }
  }
  if (limited > 0)
    allNotes.push(
      `${limited} of ${requests} requests answered 429 by the route's rateLimit: fuzz an app built with a higher max to reach the handler with more of them`,
    )
  const route = { route: key, requests, notes: allNotes }
  return failure === undefined ? { route } : { route, failure }
}

/**
 * Fuzzes the `handle()`/`validate()` routes of an Express app (nested routers included): requests
 * generated from each route's schemas — valid, invalid (one rule broken) and hostile — are sent
 * in process over a listener on 127.0.0.1, and every answer is held to the invariants: no 5xx;
 * a well-formed envelope, and error answers in the app's format (the envelope, or problem details
 * with their media type); valid requests never 422; invalid ones exactly 422 naming the broken
 * field; a request past the guards' limits (the app's and the route's) 400; the route's own 429
 * well-formed; success data matching the response schema with nothing undeclared; only statuses
 * the OpenAPI document lists. Values are kept within the guards' limits (a bound past them is
 * sampled near its low end, or noted and skipped). shapeguard's logger is silent for the run
 * unless `logs: true`. Resolves with a report; rejects with an Error whose message holds each
 * shrunk request as a `curl` line and the seed. Needs the optional peer `fast-check`.
 * @param options default `{ runs: 100 }` per route, a random seed
 * @example await fuzzRoutes(app, { runs: 50, seed: 42, auth: 'Bearer test-token' })
 */
export async function fuzzRoutes(
  app: unknown,
  options: FuzzRoutesOptions = {},
): Promise<FuzzReport> {
  const o = checkFuzzOptions(options)
  // An optional peer: a missing fast-check is a clear error here, before the app is served.
  fastCheck()
  const discovery = discoverRoutes(app)
  const doc: OpenAPIDocument =
    o.openapi ?? generateOpenAPI({ title: 'fuzzRoutes', version: '0', app, onWarning: () => {} })
  const errorAnswer = errorAnswerCheck(doc)
  // The envelope the app's shapeguard() sends (the first mounted), as the document describes it.
  const envelope = envelopeNames(discovery.answers[0]?.shape)
  const routes = selected(discovery.routes, o.routes)
  const fuzzed: FuzzedRoute[] = []
  const failures: FuzzFailure[] = []
  const skipped = [...discovery.skipped]
  const restoreLogs = o.logs ? undefined : silenceLogs()
  try {
    const listener: Listener = await listen(app as never)
    try {
      await reachShapeguard(app, listener, routes[0], o.headers)
      for (const r of routes) {
        const run = await fuzzRoute(r, { o, doc, errorAnswer, listener, app, envelope })
        fuzzed.push(run.route)
        if (run.failure !== undefined) failures.push(run.failure)
        if (run.route.requests === 0)
          skipped.push(`${run.route.route}: ${run.route.notes.join('; ')}`)
      }
    } finally {
      await listener.close()
    }
  } finally {
    restoreLogs?.()
  }
  const result: FuzzReport = {
    routes: fuzzed,
    requests: fuzzed.reduce((n, r) => n + r.requests, 0),
    failures,
    seed: o.seed,
    skipped,
  }
  if (failures.length > 0) {
    const error = new Error(report(failures, result)) as Error & { report: FuzzReport }
    error.report = result
    throw error
  }
  return result
}
