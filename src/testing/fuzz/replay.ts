import type { DiscoveredRoute } from '../../runtime/pipeline/discover-routes.js'
import { decoded, MASK } from '../../shared/credential-places.js'
import { curlLine } from '../../shared/curl-line.js'
import { undeclaredMethodProblem } from './app-checks.js'
import type { Placed } from './credentials.js'
import type { FuzzedRoute, FuzzFailure } from './fuzz-report.js'
import type { FuzzRequest } from './fuzz-request.js'
import { keyOf, type Run } from './fuzz-route.js'
import { brokenInvariant } from './invariants.js'
import { operationOf } from './response-check.js'
import { routeAuth } from './route-auth.js'
import { routeChecks } from './route-checks.js'
import type { Answer } from './send-request.js'
import { replaySequence } from './stateful/replay-sequence.js'

/** What replaying an earlier run's failures gave. */
export interface Replayed {
  readonly routes: readonly FuzzedRoute[]
  readonly failures: readonly FuzzFailure[]
}

// How a report file shows a credential: what the replay fills in again from the run's own.
const masked = (value: string) => value.includes(MASK) || value.includes('%2A%2A%2A')

const pattern = (path: string) =>
  new RegExp(
    `^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z0-9_$]+/g, '[^/]+')}/?$`,
  )

/** The route a saved request was sent to: by the failure's key, else by method and path. */
function routeOf(
  req: FuzzRequest,
  routes: readonly DiscoveredRoute[],
  key?: string,
): DiscoveredRoute | undefined {
  const path = req.url.split('?')[0]!
  return (
    routes.find((r) => keyOf(r) === key) ??
    routes.find((r) => r.method.toUpperCase() === req.method && pattern(r.path).test(path))
  )
}

/** The run's credentials (its headers, its `auth` as the route takes it) where the file masked them. */
function restored(req: FuzzRequest, placed: readonly Placed[], run: Run): FuzzRequest {
  const given: Record<string, string> = { ...run.o.headers }
  for (const p of placed) Object.assign(given, p.headers)
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => {
      const again = given[name.toLowerCase()]
      return [name, masked(value) && again !== undefined ? again : value]
    }),
  )
  const cookies = new Map(placed.flatMap((p) => p.cookies))
  if (headers.cookie !== undefined && cookies.size > 0)
    headers.cookie = headers.cookie
      .split(';')
      .map((pair) => {
        const name = pair.slice(0, pair.indexOf('=')).trim()
        const again = cookies.get(name)
        return again !== undefined && masked(pair) ? ` ${name}=${encodeURIComponent(again)}` : pair
      })
      .join(';')
      .trim()
  const query = new Map(placed.flatMap((p) => p.query))
  const [path, search] = req.url.split('?', 2) as [string, string | undefined]
  const pairs = search?.split('&').map((pair) => {
    const name = decoded(pair.slice(0, pair.indexOf('=')))
    const again = query.get(name)
    return again !== undefined && masked(pair)
      ? `${pair.slice(0, pair.indexOf('='))}=${encodeURIComponent(again)}`
      : pair
  })
  return { ...req, url: pairs === undefined ? path : `${path}?${pairs.join('&')}`, headers }
}

/** A saved request of a route with the run's credentials where the file masked them. */
function restoredFor(saved: FuzzRequest, r: DiscoveredRoute | undefined, run: Run): FuzzRequest {
  const documented = r && operationOf(run.doc, r.method, r.path)?.security
  const placed = r ? (routeAuth(run.auth, r.route, documented).credentials ?? []) : []
  return restored(saved, placed, run)
}

/** Sends one saved request again and holds its answer to its route's checks (or the methods check). */
async function again(
  req: FuzzRequest,
  r: DiscoveredRoute | undefined,
  run: Run,
): Promise<string | undefined> {
  const checks = r && routeChecks(r, run).checks
  const bounds = checks?.stream && { events: run.o.streamEvents, ms: run.o.streamMs }
  const startedAt = Date.now()
  let answer: Answer | undefined
  try {
    answer = await run.listener.send(req.method, req.url, req.headers, req.body, bounds)
  } catch (error) {
    return `the request threw: ${String(error)}`
  } finally {
    run.exchanges?.push({
      route: r ? keyOf(r) : 'methods',
      phase: 'examples',
      request: req,
      answer,
      startedAt,
    })
  }
  return checks ? brokenInvariant(req, answer, checks) : undeclaredMethodProblem(req, answer, run)
}

/**
 * Sends the requests of an earlier run's failures again, exactly, each answer held to its route's
 * checks; a stateful failure's commands run again in order on a new model, each use taking the id
 * its replayed create got, held to the sequence checks too. A credential the report masked
 * (`***`) is sent as the run's own (`auth`, `headers`) gives it. A failure whose invariant no
 * longer breaks is fixed: it is not in the result's failures.
 */
export async function replayFailures(
  failures: readonly FuzzFailure[],
  routes: readonly DiscoveredRoute[],
  run: Run,
): Promise<Replayed> {
  const replayed: FuzzedRoute[] = []
  const still: FuzzFailure[] = []
  for (const failure of failures) {
    if (failure.phase === 'stateful') {
      const again = await statefulAgain(failure, routes, run)
      replayed.push(again.route)
      if (again.failure !== undefined) still.push(again.failure)
      continue
    }
    const steps = failure.sequence ?? [failure.request]
    let broken: { req: FuzzRequest; invariant: string } | undefined
    for (const [i, saved] of steps.entries()) {
      const r = routeOf(saved, routes, i === steps.length - 1 ? failure.route : undefined)
      const req = restoredFor(saved, r, run)
      const invariant = await again(req, r, run)
      if (invariant !== undefined) {
        broken = { req, invariant }
        break
      }
    }
    replayed.push({
      route: failure.route,
      requests: steps.length,
      notes: [],
      phases: { [failure.phase]: steps.length },
    })
    if (broken === undefined) continue
    const { o, auth } = run
    still.push({
      ...failure,
      invariant: broken.invariant,
      request: broken.req,
      curl: curlLine(
        broken.req.method,
        `${o.baseUrl}${broken.req.url}`,
        broken.req.headers,
        broken.req.body,
        auth.places,
      ),
    })
  }
  return { routes: replayed, failures: still }
}

// A stateful failure again: its commands (one saved without them stays a failure, never fixed).
async function statefulAgain(failure: FuzzFailure, routes: readonly DiscoveredRoute[], run: Run) {
  const again =
    failure.stateful === undefined
      ? {
          requests: 0,
          failure: {
            ...failure,
            invariant: `not replayed: a stateful failure without its commands; run the stateful phase with seed ${failure.seed} again (${failure.invariant})`,
          },
        }
      : await replaySequence(failure, failure.stateful, routes, run, (req, r) =>
          restoredFor(req, r, run),
        )
  const route: FuzzedRoute = {
    route: failure.route,
    requests: again.requests,
    notes: [],
    phases: { stateful: again.requests },
  }
  return { route, failure: again.failure }
}
