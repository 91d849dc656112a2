// Which error statuses a route answers without declaring them: those shapeguard itself sends for
// what the route has (a body, uploads, a rate limit, security, a timeout, load shedding). The
// document lists them on every operation, the development warning of undeclared errors and the
// fuzzer accept them.

/** What decides the error statuses a route documents by default. */
export interface ErrorCases {
  /** Security applies (its own or the app's default, not empty): 401 and 403. */
  readonly secured: boolean
  /** The method carries a body (POST, PUT, PATCH) or the route has a body schema: 413 and 415. */
  readonly body: boolean
  /** The route has `files`: its 413 and 415 also refuse a file. */
  readonly files: boolean
  /** `rateLimit` is set: 429. */
  readonly rateLimited: boolean
  /** `rateLimit` has a store and `failOpen: false`: 503 RATE_LIMIT_UNAVAILABLE. */
  readonly failsClosed: boolean
  /** A handler timeout applies (the route's `timeout`, else the app's): 503 HANDLER_TIMEOUT. */
  readonly timed: boolean
  /** `shapeguard({ overload })` sheds load: 503 OVERLOADED on every route. */
  readonly overloaded: boolean
}

/** The methods whose requests carry a body, as the document counts them. */
export const bodyMethods: ReadonlySet<string> = new Set(['post', 'put', 'patch'])

/**
 * The codes of the 503 answers shapeguard sends on a route, in this order: RATE_LIMIT_UNAVAILABLE
 * when its rate limit fails closed, HANDLER_TIMEOUT with a handler timeout, OVERLOADED with load
 * shedding; empty when none applies.
 */
export function unavailableCodes(cases: ErrorCases): string[] {
  const codes: string[] = []
  if (cases.failsClosed) codes.push('RATE_LIMIT_UNAVAILABLE')
  if (cases.timed) codes.push('HANDLER_TIMEOUT')
  if (cases.overloaded) codes.push('OVERLOADED')
  return codes
}

/**
 * The error statuses a route answers by default, in ascending order: 400, 401 and 403 when
 * secured, 413 and 415 with a body or files, 422, 429 with a rate limit, 500, 503 when one of
 * `unavailableCodes` applies.
 * @example defaultErrorStatuses({ secured: false, body: false, files: false, rateLimited: false, failsClosed: false, timed: false, overloaded: false }) // → [400, 422, 500]
 */
export function defaultErrorStatuses(cases: ErrorCases): number[] {
  const statuses = [400]
  if (cases.secured) statuses.push(401, 403)
  if (cases.body || cases.files) statuses.push(413, 415)
  statuses.push(422)
  if (cases.rateLimited) statuses.push(429)
  statuses.push(500)
  if (cases.failsClosed || cases.timed || cases.overloaded) statuses.push(503)
  return statuses
}

/** Time limits in milliseconds, as a `timeout` option gives them or shapeguard() resolved them. */
interface Limits {
  readonly handler?: number | undefined
  readonly idle?: number | undefined
  readonly total?: number | undefined
}

/**
 * Which time limits apply to a route, field by field its own `timeout` (milliseconds are the
 * handler's) over the app's: `handler` answers 503 HANDLER_TIMEOUT, `stream` (idle or total) ends
 * a stream with a HANDLER_TIMEOUT error event. Read without checking: validate() checks it.
 */
export function timeLimits(
  own: unknown,
  app: Limits | undefined,
): { readonly handler: boolean; readonly stream: boolean } {
  const given: Limits | undefined =
    typeof own === 'number'
      ? { handler: own }
      : typeof own === 'object' && own !== null
        ? own
        : undefined
  const has = (field: keyof Limits) => (given?.[field] ?? app?.[field]) !== undefined
  return { handler: has('handler'), stream: has('idle') || has('total') }
}
