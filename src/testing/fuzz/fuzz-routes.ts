import { generateOpenAPI } from '../../openapi/generate/generate-openapi.js'
import type { OpenAPIDocument } from '../../openapi/generate/types.js'
import { type DiscoveredRoute, discoverRoutes } from '../../runtime/pipeline/discover-routes.js'
import { maskedText } from '../../shared/credential-places.js'
import { envelopeNames } from '../../shared/envelope-shape.js'
import { optionError } from '../../shared/error-codes.js'
import type { SecurityScheme } from '../../shared/security-scheme.js'
import { fastCheck } from '../load-fast-check.js'
import { appChecks } from './app-checks.js'
import { checkFuzzOptions, type FuzzRoutesOptions } from './fuzz-options.js'
import type { Exchange, FuzzedRoute, FuzzFailure, FuzzReport } from './fuzz-report.js'
import { reportText } from './fuzz-report.js'
import { appLimits, fuzzRoute, keyOf, type Run } from './fuzz-route.js'
import { silenceLogs } from './quiet-logs.js'
import { replayFailures } from './replay.js'
import { maskedCurl, placesOf } from './reports/mask.js'
import { errorAnswerCheck } from './response-check.js'
import { authRun } from './route-auth.js'
import { type Listener, listen } from './send-request.js'
import { statefulRun } from './stateful/stateful-run.js'

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

/**
 * Fuzzes the `handle()`/`validate()` routes of an Express app (nested routers included): requests
 * generated from each route's schemas — valid, invalid (one rule broken) and hostile — are sent
 * in process over a listener on 127.0.0.1, and every answer is held to the invariants: no 5xx;
 * a well-formed envelope, and error answers in the app's format (the envelope, or problem details
 * with their media type); valid requests never 422; invalid ones exactly 422 naming the broken
 * field; a request past the guards' limits (the app's and the route's) 400; the route's own 429
 * well-formed; success data matching the response schema with nothing undeclared; only statuses
 * the OpenAPI document lists or the route declares in its `errors` (any other 4xx is a failure).
 * A streaming route's (`events`, `stream`) requests ask for the stream (`Accept`); each answer is
 * read as it comes, up to `streamEvents` events or `streamMs`, then the connection is closed:
 * its Content-Type must be the stream's, every event one the route declares, its data JSON its
 * schema accepts with no undeclared key, and no `error` event (error line) end it.
 * A secured route (its `security`, or the app's `defaultSecurity`) must answer 401 to a valid
 * request without credentials and to one with wrong credentials of each scheme (the ignored_auth
 * check); its generated requests carry the credentials `auth` gives, and without any it is
 * reported as not fuzzed beyond that check. Credentials are shown as `***` in curl lines. Values are kept within the guards' limits (a bound past them is
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
  // The schemes of the app's shapeguard({ auth }), else those of the document it was given.
  const marked = discovery.answers[0]
  const documented = (doc.components as { securitySchemes?: Record<string, SecurityScheme> })
    .securitySchemes
  const schemes =
    marked !== undefined && Object.keys(marked.securitySchemes).length > 0
      ? marked.securitySchemes
      : (documented ?? {})
  const auth = authRun(schemes, marked?.defaultSecurity, o.auth, o.headers)
  const fuzzed: FuzzedRoute[] = []
  const failures: FuzzFailure[] = []
  const skipped = [...discovery.skipped]
  const exchanges: Exchange[] | undefined = o.record ? [] : undefined
  const restoreLogs = o.logs ? undefined : silenceLogs()
  try {
    const listener: Listener = await listen(app as never)
    try {
      await reachShapeguard(app, listener, routes[0], o.headers)
      const run: Run = { o, doc, errorAnswer, listener, app, envelope, auth, marked, exchanges }
      if (o.replay !== undefined) {
        const replayed = await replayFailures(o.replay, routes, run)
        fuzzed.push(...replayed.routes)
        failures.push(...replayed.failures)
      } else {
        const alone = ['examples', 'boundaries', 'random'].some((p) => o.phases.has(p as never))
        for (const r of routes) {
          const one = await fuzzRoute(r, run)
          fuzzed.push(one.route)
          if (one.failure !== undefined) failures.push(one.failure)
          if (one.skipped !== undefined) skipped.push(one.skipped)
          // A route that got no request from the phases that fuzz a route alone was not fuzzed.
          else if (one.route.requests === 0 && alone)
            skipped.push(`${one.route.route}: ${one.route.notes.join('; ')}`)
        }
        const checked = await appChecks(routes, run)
        skipped.push(...checked.skipped)
        const across = [checked]
        if (o.phases.has('stateful')) {
          const sequenced = await statefulRun(routes, run)
          across.push(sequenced)
          skipped.push(...sequenced.skipped)
        }
        for (const { route, failures: found } of across) {
          if (route !== undefined) fuzzed.push(route)
          failures.push(...found)
        }
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
    ...(exchanges && { exchanges }),
    secrets: {
      headers: [...auth.places.headers, ...Object.keys(o.headers)],
      query: [...auth.places.query],
      cookies: [...auth.places.cookies],
    },
  }
  if (failures.length > 0) {
    // The text test runners print masks each credential value the run sent wherever it turns up
    // (an answer that echoes a token into a failure's message), as the report files do.
    const masking = placesOf(result)
    const shown = failures.map((f) => ({
      ...f,
      invariant: maskedText(f.invariant, masking),
      curl: maskedCurl(f, masking, { baseUrl: o.baseUrl }),
    }))
    const error = new Error(reportText(shown, result)) as Error & { report: FuzzReport }
    // Not enumerable: a test runner prints an error's enumerable fields, and the report's requests
    // carry the credentials the run was given (its text masks them).
    Object.defineProperty(error, 'report', { value: result, writable: true, configurable: true })
    throw error
  }
  return result
}
