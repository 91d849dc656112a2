import { type HostLayer, maxDepth, stackOf } from '../../runtime/host/router-stack.js'
import type { DiscoveredRoute } from '../../runtime/pipeline/discover-routes.js'
import { routeMethods } from '../../runtime/router/route-methods.js'
import { terminalOf } from '../../runtime/router/warn-handler-order.js'
import { curlLine } from '../../shared/curl-line.js'
import type { FuzzedRoute, FuzzFailure } from './fuzz-report.js'
import type { FuzzRequest } from './fuzz-request.js'
import type { Run } from './fuzz-route.js'
import { brokenInvariant, type RouteChecks } from './invariants.js'
import type { Answer } from './send-request.js'

/** What the checks across the app's routes gave (undeclared methods: 405 with `Allow`). */
export interface AppChecks {
  readonly route: FuzzedRoute | undefined
  readonly failures: readonly FuzzFailure[]
  /** Why the check did not run, for the report's `skipped`: an app without notFoundHandler(). */
  readonly skipped: readonly string[]
}

/** The report's name for the check's requests. */
export const METHODS_CHECK = 'methods'

// The report's line for an app the check cannot hold to 405s.
const NO_NOT_FOUND_HANDLER = `${METHODS_CHECK}: undeclared methods not checked, the app mounts no notFoundHandler() to answer them 405 with Allow (Express answers 404 on its own): mount it after the routes`

const tried = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

// notFoundHandler() is what answers 405: an app without it gets Express's own 404, which the
// check cannot hold to anything (the guides say to mount it).
function mountsNotFound(stack: readonly HostLayer[] | undefined, depth = 0): boolean {
  if (stack === undefined || depth > maxDepth) return false
  return stack.some(
    (layer) =>
      terminalOf(layer.handle) === 'notFoundHandler()' ||
      (layer.route === undefined && mountsNotFound(stackOf(layer.handle), depth + 1)),
  )
}

// An `Allow` header as a set of upper-case methods; undefined when there is none.
function allowOf(answer: Answer): Set<string> | undefined {
  const value = answer.headers.allow
  if (typeof value !== 'string') return undefined
  return new Set(
    value
      .split(',')
      .map((m) => m.trim().toUpperCase())
      .filter((m) => m !== ''),
  )
}

// Credentials refused before any route ran (an app-wide auth): the method was never routed.
const REFUSED = 'refused'

const same = (a: ReadonlySet<string>, b: readonly string[]) =>
  a.size === b.length && b.every((m) => a.has(m))

/** What is wrong with the answer to a method the path's routes do not declare, or undefined. */
function methodProblem(
  req: FuzzRequest,
  answer: Answer,
  declared: readonly string[],
  checks: RouteChecks,
): string | undefined {
  const allow = allowOf(answer)
  const want = `405 with Allow: ${declared.join(', ')}`
  if (req.method === 'OPTIONS') {
    // The host's own answer (or the app's): only an Allow it sends is held to the routes.
    if (answer.status >= 500)
      return `answered OPTIONS ${answer.status}: a request must never get a 5xx`
    if (allow !== undefined && !same(allow, declared))
      return `answered OPTIONS with an Allow header that is not the methods its routes declare (${declared.join(', ')})`
    return undefined
  }
  if (answer.status === 401 || answer.status === 403) return REFUSED
  if (answer.status !== 405)
    return `a method no route of the path declares answered ${answer.status}, not ${want}`
  if (allow === undefined) return `answered 405 without an Allow header (${declared.join(', ')})`
  if (!same(allow, declared))
    return `answered 405 with an Allow header that is not the methods its routes declare (${declared.join(', ')})`
  return brokenInvariant(req, answer, checks)
}

// A 405 is the app's error answer, documented for no operation.
const methodChecks = (run: Run): RouteChecks => ({
  operation: undefined,
  allowed: new Set([405]),
  errorAnswer: run.errorAnswer,
  response: undefined,
  rateLimited: false,
  unavailable: new Set(),
  envelope: run.envelope,
  maxResponseTime: run.o.maxResponseTime,
})

/**
 * What is wrong with the answer to a request whose method no route of its path declares (a failure
 * of the check, replayed), or undefined; undefined as well when its path has no route now.
 */
export function undeclaredMethodProblem(
  req: FuzzRequest,
  answer: Answer,
  run: Run,
): string | undefined {
  const declared = routeMethods(run.app, '', req.url.split('?')[0]!)
  if (declared === undefined) return undefined
  const problem = methodProblem(req, answer, declared, methodChecks(run))
  return problem === REFUSED ? `answered ${answer.status} before any route` : problem
}

/**
 * Checks that need every route of a path: a method no route of a path declares (GET, POST, PUT,
 * PATCH, DELETE, and HEAD where GET is not one) answers 405 with an `Allow` header naming exactly
 * those that are (HEAD with GET), in the app's error answer; OPTIONS never a 5xx, and its `Allow`,
 * if any, the same methods. Run over every route (no `routes` option) of an app that mounts
 * `notFoundHandler()`, which answers the 405s (without it, Express answers 404 on its own: the
 * check is skipped, and `skipped` says so).
 */
export async function appChecks(routes: readonly DiscoveredRoute[], run: Run): Promise<AppChecks> {
  const { o, listener, app } = run
  // A run of chosen routes (`routes`) is about those routes: the paths' methods are not.
  if (o.routes !== undefined || routes.length === 0)
    return { route: undefined, failures: [], skipped: [] }
  if (!mountsNotFound(stackOf(app)))
    return { route: undefined, failures: [], skipped: [NO_NOT_FOUND_HANDLER] }
  const checks = methodChecks(run)
  const failures: FuzzFailure[] = []
  let requests = 0
  let refused = 0
  for (const path of new Set(routes.map((r) => r.path))) {
    const url = path.replace(/:([A-Za-z0-9_$]+)/g, '1')
    const declared = routeMethods(app, '', url)
    if (declared === undefined) continue
    const methods = [...tried, 'HEAD', 'OPTIONS'].filter((m) => !declared.includes(m))
    for (const method of methods) {
      const req: FuzzRequest = {
        kind: 'valid',
        method,
        url,
        headers: o.headers,
        body: undefined,
        expect: [405],
      }
      requests++
      const startedAt = Date.now()
      let answer: Answer | undefined
      let invariant: string | undefined
      try {
        answer = await listener.send(method, url, o.headers)
        invariant = methodProblem(req, answer, declared, checks)
      } catch (error) {
        invariant = `the request threw: ${String(error)}`
      }
      run.exchanges?.push({
        route: METHODS_CHECK,
        phase: 'examples',
        request: req,
        answer,
        startedAt,
      })
      if (invariant === REFUSED) refused++
      if (invariant === undefined || invariant === REFUSED) continue
      failures.push({
        route: `${method} ${path}`,
        phase: 'examples',
        invariant,
        request: req,
        curl: curlLine(method, `${o.baseUrl}${url}`, o.headers, undefined, run.auth.places),
        seed: o.seed,
      })
      break
    }
  }
  const notes =
    refused === 0
      ? []
      : [
          `${refused} of ${requests} requests answered 401 or 403 before any route (the app's own auth): their methods were not checked`,
        ]
  return { route: { route: METHODS_CHECK, requests, notes, phases: {} }, failures, skipped: [] }
}
