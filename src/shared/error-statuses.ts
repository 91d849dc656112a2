// Which error statuses a route answers without declaring them: those shapeguard itself sends for
// what the route has (a body, uploads, a rate limit, security). The document lists them on every
// operation, the development warning of undeclared errors and the fuzzer accept them.

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
  /** `rateLimit` has a store and `failOpen: false`: 503. */
  readonly failsClosed: boolean
}

/** The methods whose requests carry a body, as the document counts them. */
export const bodyMethods: ReadonlySet<string> = new Set(['post', 'put', 'patch'])

/**
 * The error statuses a route answers by default, in ascending order: 400, 401 and 403 when
 * secured, 413 and 415 with a body or files, 422, 429 with a rate limit, 500, 503 when the rate
 * limit fails closed.
 * @example defaultErrorStatuses({ secured: false, body: false, files: false, rateLimited: false, failsClosed: false }) // → [400, 422, 500]
 */
export function defaultErrorStatuses(cases: ErrorCases): number[] {
  const statuses = [400]
  if (cases.secured) statuses.push(401, 403)
  if (cases.body || cases.files) statuses.push(413, 415)
  statuses.push(422)
  if (cases.rateLimited) statuses.push(429)
  statuses.push(500)
  if (cases.failsClosed) statuses.push(503)
  return statuses
}
