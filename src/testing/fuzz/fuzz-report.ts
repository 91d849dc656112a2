import { routeCount } from '../../shared/fuzz-checks.js'
import type { FuzzPhase } from './fuzz-phase.js'
import type { FuzzRequest } from './fuzz-request.js'
import type { Answer } from './send-request.js'

// What a run of `fuzzRoutes` reports: the routes fuzzed, the broken invariants, and the text of
// the error it rejects with.

/** One route the fuzzer sent requests to. */
export interface FuzzedRoute {
  /** `METHOD /path` in Express's `:param` syntax, as `routes` takes it. */
  readonly route: string
  readonly requests: number
  /**
   * What it could not generate for this route and why (a kind of request, a value past the guards'
   * limits), how many answers were the route's own 429, and how many of a streaming route's
   * answers sent no event within `streamMs`.
   */
  readonly notes: readonly string[]
  /** Requests sent to it in each phase that ran. */
  readonly phases: Readonly<Partial<Record<FuzzPhase, number>>>
}

/** One broken invariant, with the shrunk request that breaks it. */
export interface FuzzFailure {
  readonly route: string
  /** The phase that found it. */
  readonly phase: FuzzPhase
  /** The invariant, in words (statuses, fields, rules; no value of the answer). */
  readonly invariant: string
  /** The request that broke it (a stateful failure's last step). */
  readonly request: FuzzRequest
  /** A stateful failure: every request of the shortest failing sequence, in order (`request` last). */
  readonly sequence?: readonly FuzzRequest[]
  /** A stateful failure: its resource and its commands, what a replay runs again. */
  readonly stateful?: StatefulSteps
  /** The request as a `curl` command line against `baseUrl`. */
  readonly curl: string
  readonly seed: number
}

/**
 * A stateful failure's sequence as its commands: the replay runs them again on the same model,
 * each id taken from the replayed create's answer, and holds them to the same checks.
 */
export interface StatefulSteps {
  /** The resource, as the stateful phase's notes name it (`/users`, or its create's route). */
  readonly resource: string
  readonly steps: readonly StatefulStep[]
}

/** One command of a stateful sequence. */
export interface StatefulStep {
  /**
   * A create, a use of a resource the sequence holds, a use of one it deleted; `prior`: the create
   * of an earlier sequence that gave the last id, which a failed create's check (without a list
   * route) reads the id after: the replay sends it first, outside the sequence's resources.
   */
  readonly command: 'create' | 'live' | 'gone' | 'prior'
  /** The route of its request (`DELETE /users/:id`). */
  readonly route: string
  /** The request as generated: a use's path gets the id of the resource it picks. */
  readonly request: FuzzRequest
  /** A create's request to the list route (what a failed create must leave as it was). */
  readonly list?: FuzzRequest
  /** A use: which resource it picks (modulo how many the sequence holds). */
  readonly pick?: number
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
  /** Every request sent and its answer, in order (with `record: true`). */
  readonly exchanges?: readonly Exchange[]
  /** Where the run's credentials travel (names, no values): what the report files mask. */
  readonly secrets?: {
    readonly headers: readonly string[]
    readonly query: readonly string[]
    readonly cookies: readonly string[]
  }
}

/** One request the run sent and the answer it got, as `record: true` keeps them. */
export interface Exchange {
  readonly route: string
  readonly phase: FuzzPhase
  readonly request: FuzzRequest
  /** The answer; undefined when the request threw (no answer). */
  readonly answer: Answer | undefined
  /** When it was sent (ms since the epoch). */
  readonly startedAt: number
}

/** The error `fuzzRoutes` rejects with: the report rides along. */
export interface FuzzError extends Error {
  readonly report: FuzzReport
}

/** The message of the error `fuzzRoutes` rejects with: each failure's curl line and how to replay it. */
export function reportText(failures: readonly FuzzFailure[], r: FuzzReport): string {
  const routes = routeCount(r.routes)
  const lines = [
    `fuzzRoutes: ${routes} ${routes === 1 ? 'route' : 'routes'}, ${r.requests} requests, ${failures.length} broken ${failures.length === 1 ? 'invariant' : 'invariants'} (seed ${r.seed})`,
  ]
  for (const f of failures) {
    lines.push(
      '',
      `${f.route}: ${f.invariant}`,
      `  ${f.curl.replaceAll('\n', '\n  ')}`,
      f.phase === 'stateful'
        ? `  replay: fuzzRoutes(app, { seed: ${f.seed}, phases: ['stateful'] })`
        : `  replay: fuzzRoutes(app, { seed: ${f.seed}, routes: [${JSON.stringify(f.route)}] })`,
    )
  }
  return lines.join('\n')
}
