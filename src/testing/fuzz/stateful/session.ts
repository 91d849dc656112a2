import type { Arbitrary } from 'fast-check'
import { resolveLimits } from '../../../runtime/guards/limits.js'
import type { DiscoveredRoute } from '../../../runtime/pipeline/discover-routes.js'
import { curlLine } from '../../../shared/curl-line.js'
import { unprefixed } from '../../../shared/error-codes.js'
import { boundedFilter } from '../../arbitrary/bounded-filter.js'
import { fastCheck } from '../../load-fast-check.js'
import type { StatefulStep } from '../fuzz-report.js'
import type { FuzzRequest } from '../fuzz-request.js'
import { appLimits, appSecret, keyOf, type Run } from '../fuzz-route.js'
import { brokenInvariant, type RouteChecks } from '../invariants.js'
import { routeAuth, withPlaced } from '../route-auth.js'
import { routeChecks } from '../route-checks.js'
import { routeRequests } from '../route-requests.js'
import type { Answer } from '../send-request.js'
import { bodyOf } from './answer-data.js'

// One route as a step of a sequence (its checks and its valid requests, with the credentials),
// and a sequence's requests as sent: each answer held to the route's invariants.

/** A route a sequence may send: its checks and its requests; `why` it cannot when it cannot. */
export interface StepRoute {
  readonly route: DiscoveredRoute
  readonly key: string
  readonly checks: RouteChecks
  readonly valid: Arbitrary<FuzzRequest> | undefined
  /** Requests with one rule broken (a create's failed ones). */
  readonly invalid: Arbitrary<FuzzRequest> | undefined
  readonly why?: string
}

/** The route's checks and its valid and invalid requests, with the run's credentials. */
export function stepRoute(r: DiscoveredRoute, run: Run): StepRoute {
  const fc = fastCheck()
  const key = keyOf(r)
  const { checks } = routeChecks(r, run)
  const auth = routeAuth(run.auth, r.route, checks.operation?.security)
  const credentials = auth.credentials
  if (credentials === undefined)
    return { route: r, key, checks, valid: undefined, invalid: undefined, why: 'no credentials' }
  const requested = routeRequests(r.method, r.path, r.route, {
    headers: run.o.headers,
    limits: resolveLimits(appLimits(run.app), r.route.limits),
    secret: appSecret(run.app),
  })
  const placed = (req: FuzzRequest) => withPlaced(req, credentials)
  const valid = requested.valid?.map(placed)
  let invalid: Arbitrary<FuzzRequest> | undefined
  const all = requested.arbitrary
  if (all !== undefined) {
    const only = boundedFilter(fc, all, (q) => q.kind === 'invalid', `invalid requests of ${key}`)
    try {
      fc.sample(only, { numRuns: 3, seed: 1 })
      invalid = only.map(placed)
    } catch {
      // A route with nothing to break (no schema): its failed creates come from the app alone.
    }
  }
  const why =
    valid === undefined
      ? requested.notes.map(unprefixed).join('; ') || 'no valid requests'
      : undefined
  return { route: r, key, checks, valid, invalid, ...(why && { why }) }
}

/** The request with the id in the path segment its route's parameter takes. */
export function filled(req: FuzzRequest, segment: number, id: string): FuzzRequest {
  const at = req.url.indexOf('?')
  const path = at === -1 ? req.url : req.url.slice(0, at)
  const parts = path.split('/')
  parts[segment] = encodeURIComponent(id)
  return { ...req, url: `${parts.join('/')}${at === -1 ? '' : req.url.slice(at)}` }
}

/** A sequence's broken check: the route of its last step, every request in order, its commands. */
export class SequenceBroken extends Error {
  constructor(
    message: string,
    readonly route: string,
    readonly sequence: readonly FuzzRequest[],
    readonly steps: readonly StatefulStep[],
  ) {
    super(message)
  }
}

/** What the run's sequences share: the requests sent in all. */
export interface Tally {
  requests: number
}

/** One sequence as it runs: its commands and requests in order. */
export class Session {
  readonly sent: FuzzRequest[] = []
  readonly keys: string[] = []
  readonly steps: StatefulStep[] = []
  /** A create of this sequence gave the highest numeric id yet (the next-id check's base). */
  numbered = false

  constructor(
    private readonly run: Run,
    private readonly tally: Tally,
  ) {}

  /** A command starts: what a replay runs again. */
  begin(step: StatefulStep): void {
    this.steps.push(step)
  }

  /** The create an earlier sequence made that this one's checks count on: the replay's first step. */
  prior(step: StatefulStep): void {
    if (!this.steps.some((s) => s.command === 'prior')) this.steps.unshift(step)
  }

  /** Sends one request of a route; its answer must hold to the route's invariants. */
  async step(s: StepRoute, req: FuzzRequest): Promise<{ answer: Answer; body: unknown }> {
    this.tally.requests++
    this.sent.push(req)
    this.keys.push(s.key)
    const startedAt = Date.now()
    let answer: Answer | undefined
    try {
      answer = await this.run.listener.send(req.method, req.url, req.headers, req.body)
    } catch (error) {
      this.fail(`the request threw: ${String(error)}`)
    } finally {
      this.run.exchanges?.push({ route: s.key, phase: 'stateful', request: req, answer, startedAt })
    }
    const broken = brokenInvariant(req, answer, s.checks)
    if (broken !== undefined) this.fail(`${broken} (in the sequence ${this.keys.join(' → ')})`)
    return { answer, body: bodyOf(answer) }
  }

  /** Stops the sequence: the check broken, at its last step. */
  fail(message: string): never {
    const route = this.keys.at(-1) ?? 'stateful'
    throw new SequenceBroken(message, route, [...this.sent], [...this.steps])
  }

  /** A request's curl line, credentials masked. */
  curl(req: FuzzRequest): string {
    const { o, auth } = this.run
    return curlLine(req.method, `${o.baseUrl}${req.url}`, req.headers, req.body, auth.places)
  }
}
