import type { OpenAPIDocument } from '../../openapi/generate/types.js'
import type { ResolvedConfig } from '../../runtime/core/config.js'
import { type GuardLimits, resolveLimits } from '../../runtime/guards/limits.js'
import type { DiscoveredRoute, Discovery } from '../../runtime/pipeline/discover-routes.js'
import { curlLine } from '../../shared/curl-line.js'
import type { EnvelopeNames } from '../../shared/envelope-shape.js'
import { unprefixed } from '../../shared/error-codes.js'
import { fastCheck } from '../load-fast-check.js'
import { random } from './credentials.js'
import type { ResolvedFuzzOptions } from './fuzz-options.js'
import type { FuzzPhase } from './fuzz-phase.js'
import type { Exchange, FuzzedRoute, FuzzFailure } from './fuzz-report.js'
import type { FuzzRequest } from './fuzz-request.js'
import { brokenInvariant, type RouteChecks, unavailableCode } from './invariants.js'
import type { ErrorAnswerCheck } from './response-check.js'
import {
  type AuthRun,
  ignoredAuth,
  probes,
  type RouteAuth,
  routeAuth,
  withPlaced,
} from './route-auth.js'
import { routeChecks } from './route-checks.js'
import { routeRequests } from './route-requests.js'
import type { Answer, Listener } from './send-request.js'
import { timedOut } from './stream-check.js'

// One route's run: the ignored_auth check of a secured route, then its generated requests, each
// answer held to the invariants.

class InvariantBroken extends Error {}

/** A route's key, as `routes` takes it and reports name it: `POST /users/:id`. */
export const keyOf = (r: DiscoveredRoute) => `${r.method.toUpperCase()} ${r.path}`

const configOf = (app: unknown): ResolvedConfig | undefined =>
  (app as { locals?: { shapeguard?: ResolvedConfig } }).locals?.shapeguard

/** The guard limits the app's shapeguard() left on `app.locals`, once it has seen a request. */
export const appLimits = (app: unknown): GuardLimits | undefined => configOf(app)?.validation.limits

/** The secret the app's signed cookies are signed with (the first of its secrets), once it is there. */
export const appSecret = (app: unknown): string | undefined => configOf(app)?.cookies?.secrets[0]

/** What one route's fuzzing needs of the run. */
export interface Run {
  readonly o: ResolvedFuzzOptions
  readonly doc: OpenAPIDocument
  readonly errorAnswer: ErrorAnswerCheck
  readonly listener: Listener
  readonly app: unknown
  readonly envelope: EnvelopeNames
  readonly auth: AuthRun
  /** How the app's shapeguard() (the first mounted) answers: its `timeout` and `overload`. */
  readonly marked: Discovery['answers'][number] | undefined
  /** Where every request and its answer go, with `record: true`. */
  readonly exchanges?: Exchange[] | undefined
}

// What the notes call the answers the route's own limits gave in its handler's place.
const unavailableLabels: Readonly<Record<string, string>> = {
  HANDLER_TIMEOUT: "503 HANDLER_TIMEOUT (the route's timeout)",
  OVERLOADED: '503 OVERLOADED (load shedding)',
  stream: "a stream ended by the route's time limit (HANDLER_TIMEOUT)",
}

const curlOf = (req: FuzzRequest, { o, auth }: Run) =>
  curlLine(req.method, `${o.baseUrl}${req.url}`, req.headers, req.body, auth.places)

/** One route's requests as sent: its headers for every request, and how its answers are read. */
interface Sender {
  readonly headers: Readonly<Record<string, string>>
  send(req: FuzzRequest): Promise<Answer>
}

/**
 * The ignored_auth check of a secured route, from one of its valid requests (or, without any, a
 * bare one): each answer must be a well-formed 401. The first that is not is the route's failure.
 */
async function authChecks(
  r: DiscoveredRoute,
  sample: FuzzRequest | undefined,
  auth: RouteAuth,
  checks: RouteChecks,
  run: Run & Sender,
): Promise<{ requests: number; failure?: FuzzFailure }> {
  const base: FuzzRequest = sample ?? {
    kind: 'valid',
    method: r.method.toUpperCase(),
    url: r.path.replace(/:([A-Za-z0-9_$]+)/g, '1'),
    headers: run.headers,
    body: undefined,
  }
  let requests = 0
  for (const probe of probes(base, auth, run.auth, random(run.o.seed))) {
    requests++
    const req = probe.request
    // A request Node refuses to send (a header of --header with a newline) fails as a generated one does.
    const invariant = await run.send(req).then(
      (answer) => ignoredAuth(probe, answer, checks),
      (error: unknown) => `the request threw: ${String(error)}`,
    )
    if (invariant !== undefined) {
      const failure: FuzzFailure = {
        route: keyOf(r),
        phase: 'examples',
        invariant,
        request: req,
        curl: curlOf(req, run),
        seed: run.o.seed,
      }
      return { requests, failure }
    }
  }
  return { requests }
}

/** What fuzzing one route gave. */
export interface RouteRun {
  readonly route: FuzzedRoute
  /** The first invariant it broke, with the shrunk request. */
  readonly failure?: FuzzFailure
  /** Why it was not fuzzed beyond its 401 answers (a secured route without credentials). */
  readonly skipped?: string
}

/**
 * Fuzzes one route: a secured one first gets the ignored_auth check, then (with the user's
 * credentials) its generated requests; its notes, and its shrunk failure if one broke an invariant.
 */
export async function fuzzRoute(r: DiscoveredRoute, run: Run): Promise<RouteRun> {
  const { o, listener, app } = run
  const fc = fastCheck()
  const key = keyOf(r)
  const limits = resolveLimits(appLimits(app), r.route.limits)
  const { checks, stream } = routeChecks(r, run)
  // A streaming route's requests ask for the stream; its answers are read within bounds.
  const headers = stream ? { accept: stream.media, ...o.headers } : o.headers
  const bounds = stream && { events: o.streamEvents, ms: o.streamMs }
  const send = (req: FuzzRequest) =>
    listener.send(req.method, req.url, req.headers, req.body, bounds)
  const requested = routeRequests(r.method, r.path, r.route, {
    headers,
    limits,
    secret: appSecret(app),
    phases: o.phases,
  })
  const { notes } = requested
  const allNotes: string[] = checks.operation
    ? [...notes]
    : [...notes, 'not in the OpenAPI document: statuses and envelopes not checked']
  const auth = routeAuth(run.auth, r.route, checks.operation?.security)
  let requests = 0
  let failure: FuzzFailure | undefined
  if (auth.alternatives.length > 0) {
    const valid = requested.valid ?? requested.arbitrary
    const sample = valid && fc.sample(valid, { numRuns: 1, seed: o.seed })[0]
    const checked = await authChecks(r, sample, auth, checks, { ...run, headers, send })
    requests += checked.requests
    failure = checked.failure
  }
  let placed = (req: FuzzRequest) => req
  let skipped: string | undefined
  if (auth.credentials === undefined) {
    const names = auth.alternatives.map((a) => a.join(' + ')).join(' or ')
    skipped = `${key}: secured (${names}) and no credentials were given for it, only its 401 answers were checked: give fuzzRoutes auth`
  } else if (auth.credentials.length > 0) {
    const credentials = auth.credentials
    placed = (req) => withPlaced(req, credentials)
  }
  const phases: Partial<Record<FuzzPhase, number>> = {}
  let limited = 0
  let silent = 0
  const unavailable = new Map<string, number>()
  // One request of a phase: sent, counted, kept (`record`), its answer held to the invariants.
  const attempt = async (req: FuzzRequest, phase: FuzzPhase): Promise<string | undefined> => {
    phases[phase] = (phases[phase] ?? 0) + 1
    const startedAt = Date.now()
    let answer: Answer | undefined
    try {
      answer = await send(req)
    } finally {
      run.exchanges?.push({ route: key, phase, request: req, answer, startedAt })
    }
    if (answer.status === 429 && checks.rateLimited) limited++
    if (answer.stream?.stop === 'time' && answer.stream.items.length === 0) silent++
    const own =
      unavailableCode(answer, checks) ??
      (stream && answer.stream && timedOut(answer.stream, stream) ? 'stream' : undefined)
    if (own !== undefined) unavailable.set(own, (unavailable.get(own) ?? 0) + 1)
    return brokenInvariant(req, answer, checks)
  }
  const failed = (req: FuzzRequest, phase: FuzzPhase, invariant: string): FuzzFailure => ({
    route: key,
    phase,
    invariant,
    request: req,
    curl: curlOf(req, run),
    seed: o.seed,
  })
  if (skipped === undefined) {
    // The deterministic phases first: the schemas' examples, then every constraint's edges.
    for (const phase of ['examples', 'boundaries'] as const) {
      if (!o.phases.has(phase) || failure !== undefined) continue
      for (const one of requested[phase]) {
        const req = placed(one)
        const broken = await attempt(req, phase).catch(
          (error: unknown) => `the request threw: ${String(error)}`,
        )
        if (broken === undefined) continue
        failure = failed(req, phase, broken)
        break
      }
    }
  }
  const arbitrary = skipped === undefined ? requested.arbitrary?.map(placed) : undefined
  if (arbitrary !== undefined && failure === undefined && o.phases.has('random')) {
    const details = await fc.check(
      fc.asyncProperty(arbitrary, async (req) => {
        const broken = await attempt(req, 'random')
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
      const invariant =
        error instanceof InvariantBroken ? error.message : `the request threw: ${String(error)}`
      failure = failed(req, 'random', invariant)
    }
  }
  const generated = Object.values(phases).reduce((n, k) => n + k, 0)
  requests += generated
  if (limited > 0)
    allNotes.push(
      `${limited} of ${generated} requests answered 429 by the route's rateLimit: fuzz an app built with a higher max to reach the handler with more of them`,
    )
  for (const [own, n] of unavailable)
    allNotes.push(
      `${n} of ${generated} requests answered ${unavailableLabels[own]}: documented, not a failure`,
    )
  if (silent > 0)
    allNotes.push(
      `${silent} of ${generated} streamed answers sent no event within streamMs (${o.streamMs} ms): raise it to check their events`,
    )
  const route = { route: key, requests, notes: allNotes, phases }
  return { route, ...(failure && { failure }), ...(skipped && { skipped }) }
}
