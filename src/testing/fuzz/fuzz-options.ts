import type { OpenAPIDocument } from '../../openapi/generate/types.js'
import { checkKnownKeys } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import { isObject } from '../../shared/is-object.js'
import type { Credential } from './credentials.js'
import { type FuzzPhase, fuzzPhases } from './fuzz-phase.js'
import type { FuzzFailure } from './fuzz-report.js'

/** Options of `fuzzRoutes()`; every field is optional. */
export interface FuzzRoutesOptions {
  /** Generated requests per route. @default 100 */
  readonly runs?: number
  /** The seed of the run (printed with every failure, to replay it). @default random */
  readonly seed?: number
  /** Only these routes (`'POST /users/:id'`, Express path syntax), or those a predicate picks. @default every route */
  readonly routes?: readonly string[] | ((route: { method: string; path: string }) => boolean)
  /** Headers sent with every request (a schema's generated headers win). @default {} */
  readonly headers?: Readonly<Record<string, string>>
  /**
   * Credentials: the `Authorization` header of every request (`'Bearer test-token'`), or by
   * scheme name of the app's `auth`: a bearer token or an API key (sent where the scheme says), basic
   * credentials (`{ user, password }` or `'user:password'`), the headers of a custom scheme.
   * A secured route is sent its scheme's credentials; without them only its 401s are checked.
   */
  readonly auth?: string | Readonly<Record<string, Credential>>
  /** The app's OpenAPI document. @default generateOpenAPI({ app }) */
  readonly openapi?: OpenAPIDocument
  /**
   * Statuses a route may answer beyond those its OpenAPI document lists, by route key or `'*'`
   * (e.g. `{ 'GET /users/:id': [404] }`): a handler's own errors the document does not describe.
   * @default {}
   */
  readonly statuses?: Readonly<Record<string, readonly number[]>>
  /** Where the `curl` lines of a failure report point. @default 'http://localhost:3000' */
  readonly baseUrl?: string
  /**
   * Let shapeguard's logs through (request lines, errors): by default the logger is silent for
   * the run and back to its level afterwards, whether the run passes or throws. @default false
   */
  readonly logs?: boolean
  /**
   * Events (or NDJSON lines) read of each answer of a streaming route (`events`, `stream`) before
   * the fuzzer hangs up: a stream may never end. @default 20
   */
  readonly streamEvents?: number
  /**
   * Milliseconds each answer of a streaming route is read at most, from its head: a stream that
   * is slow or silent is cut there, which is no failure. @default 2000
   */
  readonly streamMs?: number
  /** The phases to run (always in the order of {@link fuzzPhases}). @default every phase */
  readonly phases?: readonly FuzzPhase[]
  /** Milliseconds an answer may take at most; a slower one is a failure. @default no limit */
  readonly maxResponseTime?: number
  /** Stateful sequences generated per resource (create, then read, update, delete). @default 25 */
  readonly sequences?: number
  /** Keep every request sent and its answer in the report's `exchanges` (for a HAR file). @default false */
  readonly record?: boolean
  /**
   * Failures of an earlier run (its report's `failures`, e.g. read from `--report json`): their
   * requests are sent again exactly, in place of generated ones, and held to the same checks. A
   * stateful failure's commands run again in order, each use taking the id its replayed create got.
   */
  readonly replay?: readonly FuzzFailure[]
}

/** The options resolved once, before any request. */
export interface ResolvedFuzzOptions {
  readonly runs: number
  readonly seed: number
  readonly routes: FuzzRoutesOptions['routes']
  /** `headers`, lower-cased, with `auth`'s `Authorization` in its string form. */
  readonly headers: Readonly<Record<string, string>>
  /** `auth` by scheme name; undefined for the string form. */
  readonly auth: Readonly<Record<string, Credential>> | undefined
  readonly openapi: OpenAPIDocument | undefined
  readonly statuses: Readonly<Record<string, readonly number[]>>
  readonly baseUrl: string
  readonly logs: boolean
  readonly streamEvents: number
  readonly streamMs: number
  readonly phases: ReadonlySet<FuzzPhase>
  readonly maxResponseTime: number | undefined
  readonly sequences: number
  readonly record: boolean
  readonly replay: readonly FuzzFailure[] | undefined
}

const known = [
  'runs',
  'seed',
  'routes',
  'headers',
  'auth',
  'openapi',
  'statuses',
  'baseUrl',
  'logs',
  'streamEvents',
  'streamMs',
  'phases',
  'maxResponseTime',
  'sequences',
  'record',
  'replay',
]

function fail(message: string): never {
  throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: fuzzRoutes(): ${message}`)
}

/** Checks and resolves `fuzzRoutes` options; a TypeError names the option at fault. */
export function checkFuzzOptions(options: FuzzRoutesOptions): ResolvedFuzzOptions {
  if (typeof options !== 'object' || options === null) fail('options must be an object')
  checkKnownKeys(options, known, 'fuzzRoutes(): options.')
  const {
    runs = 100,
    seed = Math.floor(Math.random() * 2 ** 31),
    routes,
    headers = {},
    auth,
    streamEvents = 20,
    streamMs = 2000,
    phases = fuzzPhases,
    maxResponseTime,
    sequences = 25,
  } = options
  if (!Number.isSafeInteger(runs) || runs < 1) fail('options.runs must be a positive integer')
  if (!Number.isSafeInteger(streamEvents) || streamEvents < 1)
    fail('options.streamEvents must be a positive integer')
  // Node's timers take at most 2³¹−1 ms: a longer one would fire at once.
  if (!Number.isSafeInteger(streamMs) || streamMs < 1 || streamMs > 2 ** 31 - 1)
    fail('options.streamMs must be a positive integer (milliseconds), at most 2147483647')
  if (!Number.isSafeInteger(seed)) fail('options.seed must be an integer')
  if (!Array.isArray(phases) || phases.length === 0 || !phases.every((p) => fuzzPhases.includes(p)))
    fail(
      `options.phases must be a non-empty array of ${fuzzPhases.map((p) => `'${p}'`).join(', ')}`,
    )
  if (
    maxResponseTime !== undefined &&
    (!Number.isSafeInteger(maxResponseTime) || maxResponseTime < 1)
  )
    fail('options.maxResponseTime must be a positive integer (milliseconds)')
  if (!Number.isSafeInteger(sequences) || sequences < 1)
    fail('options.sequences must be a positive integer')
  if (options.record !== undefined && typeof options.record !== 'boolean')
    fail('options.record must be a boolean')
  if (options.replay !== undefined && !Array.isArray(options.replay))
    fail("options.replay must be an array of failures (a report's failures)")
  if (routes !== undefined && typeof routes !== 'function' && !Array.isArray(routes))
    fail("options.routes must be an array of route keys ('GET /users/:id') or a function")
  if (typeof headers !== 'object' || headers === null)
    fail('options.headers must be an object of strings')
  for (const [name, value] of Object.entries(headers))
    if (typeof value !== 'string') fail(`options.headers.${name} must be a string`)
  if (auth !== undefined && (typeof auth === 'string' ? auth === '' : !isObject(auth)))
    fail(
      'options.auth must be a non-empty string (the Authorization header) or an object by scheme name',
    )
  if (options.logs !== undefined && typeof options.logs !== 'boolean')
    fail('options.logs must be a boolean')
  const statuses = options.statuses ?? {}
  for (const [key, list] of Object.entries(statuses))
    if (!Array.isArray(list) || !list.every((s) => Number.isInteger(s) && s >= 100 && s <= 599))
      fail(`options.statuses[${JSON.stringify(key)}] must be an array of HTTP statuses`)
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
  return {
    runs,
    seed,
    routes,
    headers: typeof auth === 'string' ? { ...lower, authorization: auth } : lower,
    auth: typeof auth === 'string' ? undefined : auth,
    openapi: options.openapi,
    statuses,
    baseUrl: (options.baseUrl ?? 'http://localhost:3000').replace(/\/$/, ''),
    logs: options.logs ?? false,
    streamEvents,
    streamMs,
    phases: new Set(phases),
    maxResponseTime,
    sequences,
    record: options.record ?? false,
    replay: options.replay,
  }
}
