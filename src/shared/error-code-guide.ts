import type { ErrorCode } from './error-codes.js'

/** What the reference says of one error code, beside its status and message in the registry. */
export interface ErrorCodeGuide {
  /** Who raises it, in a few words (the reference's summary table). */
  readonly raisedBy: string
  /** When it is raised: the request, the option or the state that leads to it. */
  readonly when: string
  /** What a client that receives it does. */
  readonly client: string
  /** What the API's author does when it is raised more often than expected, or to change it. */
  readonly server: string
}

/**
 * When each code of the registry (error-codes.ts) is raised and how it is handled, one entry per
 * code: docs/reference/error-codes.md is written from here and the registry
 * (`npm run docs:reference`). Documentation only: nothing at run time reads it, so the runtime's
 * bundles do not carry it.
 */
export const errorCodeGuide: { readonly [K in ErrorCode]: ErrorCodeGuide } = {
  NOT_FOUND: {
    raisedBy: '`AppError.notFound`, `notFoundHandler`, host 404s (`express.static`)',
    when: 'No route matches the method and path (`notFoundHandler()`), a handler throws `AppError.notFound()`, or the host framework answers 404 (a file `express.static` does not have).',
    client:
      'Check the URL and the resource ID; do not retry the same request. A resource that was deleted stays 404.',
    server:
      'Throw `AppError.notFound()` for a missing resource. Mount `notFoundHandler()` after every route, so unknown paths get the envelope instead of Express\'s HTML page; its `message` option replaces the default "Cannot GET /path".',
  },
  UNAUTHORIZED: {
    raisedBy: "a route's `security`, `AppError.unauthorized`, host 401s",
    when: 'A route with `security` got no credential, or one its verifier refused; or a handler throws `AppError.unauthorized()`. The answer carries `WWW-Authenticate` for the schemes the route accepts.',
    client:
      'Send a credential, or refresh the expired one, then retry. Do not retry with the same credential.',
    server:
      "Check the scheme's verifier (`shapeguard({ auth })`): it returns `undefined` for an unknown credential. A verifier that throws is a server error, not a 401.",
  },
  FORBIDDEN: {
    raisedBy: '`AppError.forbidden` (in a verifier too), host 403s',
    when: 'The credential is valid but not allowed to do this: a verifier or a handler throws `AppError.forbidden()`, or the host framework answers 403.',
    client:
      'Do not retry: the same credential stays refused. Ask for the permission, or use another account.',
    server:
      'Throw `AppError.forbidden()` from the verifier or the handler once the principal is known and lacks the right.',
  },
  CONFLICT: {
    raisedBy: '`AppError.conflict`, host 409s',
    when: 'A handler throws `AppError.conflict()`: the request contradicts the state of the resource (a unique key taken, a stale version).',
    client:
      'Read the resource again, resolve the conflict (another name, the latest version), then send again.',
    server:
      'Throw `AppError.conflict()` with details that say what conflicts (the field, never the stored value of another user).',
  },
  INTERNAL_ERROR: {
    raisedBy: '`AppError.internal`, any programmer error',
    when: 'A handler throws something that is not an operational `AppError` (a `TypeError`, a rejected promise, `AppError.internal()`), or a response fails its schema. In production the message is the generic one and the details and stack are dropped; in development they are sent.',
    client:
      'Retry later at most, with backoff; report it with the `x-request-id` of the answer, which the server logged with the error.',
    server:
      "Find the error in the log by the request ID. Fix the bug; for a failure that is expected (a dependency down), throw an `AppError` of your own code instead, so the client gets a useful message. `errorHandler({ fallbackMessage })` changes production's message.",
  },
  METHOD_NOT_ALLOWED: {
    raisedBy: '`createRouter` routes, answered by `notFoundHandler`',
    when: 'The path exists but not for this method (a `DELETE` on a route that has only `GET`), on routes mounted with `createRouter()` or known to `notFoundHandler()`. The `Allow` header and `details.allowed` list the methods the path takes.',
    client: 'Use one of the methods in `Allow`; do not retry the same method.',
    server:
      'Mount `notFoundHandler()` after the routes so a wrong method is told apart from an unknown path; add the method if clients need it.',
  },
  VALIDATION_ERROR: {
    raisedBy: '`validate`, `handle`, `AppError.validation`',
    when: "The request's body, query, params or headers fail the route's schema. `details` lists the issues (`field`, `message`, and `code` with `validation.exposeSchemaCodes`): the first only, unless `validation.allErrors` is on.",
    client:
      'Show each issue next to its field and fix the request; do not retry it unchanged. Problem details carry the same issues under `errors`.',
    server:
      "Read the issue list against the schema. Set `shapeguard({ validation: { allErrors: true } })` to report every issue instead of the first; a schema's own messages reach the client, so write them for the client.",
  },
  RATE_LIMIT_EXCEEDED: {
    raisedBy: 'per-route `rateLimit`, host 429s',
    when: "A client sent more requests than the route's `rateLimit.max` within `windowMs`. The answer has `Retry-After` (seconds) and the `RateLimit-*` headers; `details.retryAfter` repeats the wait.",
    client:
      'Wait `Retry-After` seconds before the next request; spread requests out instead of retrying at once.',
    server:
      "Raise `max` or widen `windowMs`, or key the limit by user instead of address (`keyGenerator`). Behind a proxy, set Express's `trust proxy` so each client has its own address.",
  },
  RATE_LIMIT_UNAVAILABLE: {
    raisedBy: 'per-route `rateLimit` with `failOpen: false` when its store fails',
    when: "A route's rate limit has a store (Redis) and `failOpen: false`, and the store failed or did not answer in time: the request is refused rather than let through uncounted.",
    client: 'Retry later, with backoff: the server cannot count requests for now.',
    server:
      'Check the store (Redis) and its connection. `failOpen: true` (the default) lets requests through while the store is down instead.',
  },
  HANDLER_TIMEOUT: {
    raisedBy: "a route's `timeout`",
    when: "A route's handler did not answer within its `timeout` (the route's, else `shapeguard({ timeout })`); `req.signal` is aborted at the same moment. A stream that passes its idle or total limit ends with a HANDLER_TIMEOUT error event instead. The answer has `Retry-After`.",
    client:
      'Retry after `Retry-After` seconds; a request that changes state may have been applied, so retry it only if it is idempotent or carries an idempotency key.',
    server:
      'Pass `req.signal` to the database and fetch calls so work stops with the answer; raise the timeout of a route that is slow by design.',
  },
  OVERLOADED: {
    raisedBy: '`shapeguard({ overload })`',
    when: "The process is past one of `shapeguard({ overload })`'s limits (event-loop delay, heap, resident memory): every route but the health probes is refused with `Retry-After` until it recovers.",
    client: 'Retry after `Retry-After` seconds, or try another instance.',
    server:
      'Add capacity or find what blocks the event loop; tune the limits in `overload` if they are too tight.',
  },
  SHUTTING_DOWN: {
    raisedBy: '`serve()`, `closeGracefully()`',
    when: 'A request arrived while `serve()` or `closeGracefully()` drains the server before it stops. The answer has `Connection: close` and `Retry-After`.',
    client: 'Retry on a new connection: the load balancer sends it to another instance.',
    server:
      "Expected during deploys. Make the readiness probe (`health()`'s `/readyz`) fail first, so the load balancer stops sending before the drain.",
  },
  NOT_READY: {
    raisedBy: "`health()`'s `/readyz`",
    when: "`health()`'s readiness route while one of its checks fails or the server drains; `details` names the failing checks.",
    client:
      'Load balancers and orchestrators stop routing to the instance until it answers 200 again.',
    server:
      'Fix the dependency the failing check names; a check that fails for good keeps the instance out of rotation.',
  },
  BODY_TOO_DEEP: {
    raisedBy: 'pre-parse guard',
    when: 'The body (or query) nests objects and arrays deeper than `validation.limits.maxDepth`; checked before any schema runs. `details.maxDepth` gives the limit.',
    client: 'Send a flatter document; do not retry it unchanged.',
    server:
      'Raise `shapeguard({ validation: { limits: { maxDepth } } })` if real requests nest that deep.',
  },
  BODY_ARRAY_TOO_LARGE: {
    raisedBy: 'pre-parse guard',
    when: 'An array in the body (or query) has more items than `validation.limits.maxArrayLength`; checked before any schema runs. `details.maxArrayLength` gives the limit.',
    client: 'Send fewer items, in several requests if the API allows.',
    server:
      'Raise `validation.limits.maxArrayLength`, or give the route a batch size its schema enforces.',
  },
  STRING_TOO_LONG: {
    raisedBy: 'pre-parse guard',
    when: 'A string in the body (or query) is longer than `validation.limits.maxStringLength`; checked before any schema runs. `details.maxStringLength` gives the limit.',
    client: 'Send a shorter value.',
    server:
      'Raise `validation.limits.maxStringLength` for a route that takes long text, or upload it as a file.',
  },
  INVALID_CONTENT_TYPE: {
    raisedBy: 'pre-parse guard, body parser (charset, encoding), `verifyWebhook`',
    when: 'A request with a body has no `Content-Type`, or one the route does not take (a form posted to a JSON route), or a charset or `Content-Encoding` the body parser cannot read.',
    client: 'Send the media type the route documents (usually `Content-Type: application/json`).',
    server:
      'Mount the body parser for the type clients send (`express.json()`, `express.urlencoded()`), or declare `files` for multipart uploads.',
  },
  PARAM_POLLUTION: {
    raisedBy: 'pre-parse guard',
    when: 'A query parameter (or a form field) is repeated (`?id=1&id=2`) where the schema does not take an array. `details.param` names it.',
    client: 'Send the parameter once, or as the array form the API documents.',
    server: 'Make the query schema an array for a parameter that may repeat.',
  },
  PROTO_POLLUTION: {
    raisedBy: 'pre-parse guard',
    when: 'The body or query has a `__proto__` key, which could reach `Object.prototype` (`constructor` and `prototype` keys are removed without an error).',
    client: 'Remove the key; no legitimate request needs it.',
    server: 'Nothing to change: the guard refuses an attack. Log it if it keeps coming.',
  },
  INVALID_JSON: {
    raisedBy: 'body parser: malformed JSON',
    when: "The body is declared JSON but the host's body parser cannot parse it. Answered in the envelope when `shapeguard()` is mounted before `express.json()`.",
    client: 'Send valid JSON; do not retry it unchanged.',
    server:
      "Mount `shapeguard()` before `express.json()` so the parser's error gets the envelope instead of an HTML page.",
  },
  PAYLOAD_TOO_LARGE: {
    raisedBy: 'body parser: body over its limit, too many form parameters',
    when: "The body is larger than the body parser's `limit` (Express's default is 100 kB), a form has more parameters than allowed, or an upload is over its `files` limit.",
    client: 'Send a smaller body, or upload large content in parts if the API allows.',
    server:
      "Raise the parser's limit (`express.json({ limit: '1mb' })`) or the route's file limits; keep it as low as real requests allow.",
  },
  BAD_REQUEST: {
    raisedBy: 'malformed path encoding, two `Authorization` headers, other host 4xx',
    when: 'A request shapeguard cannot read for a reason no other code names: a malformed `%` escape in the path, two `Authorization` headers, a malformed multipart body, an aborted upload, or another 4xx of the host framework.',
    client: 'Fix the request as the message says; do not retry it unchanged.',
    server:
      'Usually nothing to change. A `BAD_REQUEST` from a host middleware means that middleware refused the request: its own status is kept when it is a 4xx.',
  },
  WEBHOOK_SIGNATURE_MISSING: {
    raisedBy: '`verifyWebhook`: signature or id header absent',
    when: "A webhook request lacks the provider's signature header (or its message-ID header).",
    client:
      "The sender is not the provider, or it is not configured to sign; the provider's own retries will fail the same way.",
    server:
      'Check that the provider signs its deliveries and that `verifyWebhook()` names the provider (or the `headerName` of a custom scheme).',
  },
  WEBHOOK_SIGNATURE_INVALID: {
    raisedBy: '`verifyWebhook`: no signature matches, malformed header',
    when: 'No signature in the header matches the body signed with the secret, or the header is malformed.',
    client: 'Not to be retried unchanged: the body, the secret or the signing scheme differs.',
    server:
      'Check the secret (and its rotation: give both during a rollover) and that the route gets the raw body (`express.raw()` or `rawBody()`), not re-serialised JSON.',
  },
  WEBHOOK_TIMESTAMP_MISSING: {
    raisedBy: '`verifyWebhook`: timestamped scheme without its timestamp',
    when: 'A provider whose signatures include a timestamp (Stripe, Svix, Standard Webhooks) sent none.',
    client: 'The sender is not the provider, or not its current signing scheme.',
    server: 'Check that the `provider` given to `verifyWebhook()` is the one that sends.',
  },
  WEBHOOK_TIMESTAMP_EXPIRED: {
    raisedBy: '`verifyWebhook`: timestamp outside the replay window',
    when: "The signed timestamp is further from the server's clock than `toleranceSecs`: a replayed request, or clocks out of sync.",
    client: 'The provider retries with a new timestamp; a replay stays refused.',
    server:
      "Keep the server's clock in sync (NTP); widen `toleranceSecs` only if deliveries are delayed.",
  },
}
