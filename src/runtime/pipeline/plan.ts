import { toAdapter } from '../../adapters/resolve.js'
import { isAdapter, type SchemaAdapter } from '../../engine/adapter.js'
import { compile } from '../../engine/compile/compile.js'
import type { RequestPart } from '../../engine/result.js'
import { checkBoolean, checkKnownKeys, checkNested } from '../../shared/check-option.js'
import { resolveDeprecation } from '../../shared/deprecation.js'
import { optionError, unprefixed } from '../../shared/error-codes.js'
import { eventsProblem } from '../../shared/event-names.js'
import { type MisuseCode, misuseCodes } from '../../shared/misuse-codes.js'
import { checkSecurity } from '../../shared/resolve-schemes.js'
import { authStep } from '../auth/auth-step.js'
import { type CookieSlot, cookieSource, signedCookieSource } from '../cookies/cookie-sources.js'
import { declaredNames } from '../cookies/declared-names.js'
import type { ResolvedConfig, ResolvedTimeout } from '../core/config.js'
import type { ResponseStripper, RouteStreams } from '../core/context.js'
import type { Step } from '../core/step.js'
import { routeTimeout } from '../lifecycle/route-timeout.js'
import {
  debugExposure,
  exposureKeys,
  resolveExposure,
  warningKeys,
} from '../middleware/resolve-config.js'
import { multipartStep } from '../multipart/multipart-step.js'
import { rateLimitStep } from '../rate-limit/rate-limit-step.js'
import { cacheStep } from '../response/cache-control.js'
import { deprecationStep } from '../response/deprecation-step.js'
import { responseStripper } from '../response/strip-response.js'
import { routeStreams } from '../stream/route-streams.js'
import { streamStep } from '../stream/stream-step.js'
import { routeErrorCodes } from './declared-errors.js'
import type { IssuePart } from './issue-details.js'
import { queryArrayKeys } from './query-array-keys.js'
import type { AnyRoute } from './route-types.js'
import { cookieStep, guardStep, partStep, transformStep } from './steps.js'
import { warnCompileFallback } from './warn-compile-fallback.js'
import { warnRiskyPatterns } from './warn-risky-patterns.js'

/** A route resolved once, at definition: its steps in pipeline order and its response stripper; a request only runs it. */
export interface RoutePlan {
  readonly steps: readonly Step[]
  readonly stripper: ResponseStripper | undefined
  /** `warnings.missingResponseSchema` of the route: false turns the warning off for it. */
  readonly schemaWarning: boolean
  /** The codes of the route's `errors` (registry codes, factories' codes). */
  readonly codes: readonly string[]
  /** `events` or `stream`: what `res.sse()`/`res.ndjson()` start. */
  readonly streams: RouteStreams | undefined
  /** The route's `timeout` over an app's, merged once per app; undefined when it has none of its own. */
  readonly timeout: ((config: ResolvedConfig) => ResolvedTimeout | undefined) | undefined
}

const parts = ['body', 'params', 'query', 'headers'] as const satisfies readonly RequestPart[]
const cookieSlots = ['cookies', 'signedCookies'] as const satisfies readonly CookieSlot[]

/**
 * Every field a route may hold: its schemas, its options (`transform`, `rateLimit`, `cache`,
 * `limits`, `allErrors`, `sanitize`), and the documentation fields generateOpenAPI reads.
 */
export const routeKeys = [
  ...parts,
  'files',
  ...cookieSlots,
  'response',
  'sends',
  'events',
  'stream',
  'transform',
  'rateLimit',
  'cache',
  'limits',
  'allErrors',
  'sanitize',
  'warnings',
  'security',
  'errors',
  'timeout',
  'summary',
  'description',
  'tags',
  'deprecated',
  'bodyType',
  'externalDocs',
  'extensions',
  'responseHeaders',
  'operationId',
  'links',
] as const satisfies readonly (keyof AnyRoute)[]

// A schema given where its route belongs (`validate(User)` for `validate({ body: User })`).
function isSchema(value: object): boolean {
  return '~standard' in value || '_zod' in value || isAdapter(value)
}

const cache = new WeakMap<object, RoutePlan>()

/**
 * Throws a TypeError unless `route` is a route: an object, not a schema, with no key but a route's
 * fields (a misspelt `responce` would silently turn response stripping off).
 * @param name the function given the route, as errors name it
 * @example checkRoute(definition, 'defineRoute()')
 */
export function checkRoute(route: unknown, name: string): void {
  if (typeof route !== 'object' || route === null) {
    throw optionError(
      'SG_ERR_NOT_A_ROUTE',
      `shapeguard: ${name}: takes a route: { body?, params?, query?, headers?, response? … }`,
    )
  }
  if (isSchema(route)) {
    throw optionError(
      'SG_ERR_NOT_A_ROUTE',
      `shapeguard: ${name}: takes a route, not a schema, give the schema as one of its parts, e.g. { body: schema }`,
    )
  }
  checkKnownKeys(route, routeKeys, name)
}

/**
 * Compiles a route once (cached by the route object): schemas to validators, limits, the query's
 * array keys, the steps of a guarded request. Throws at definition naming a bad field or option.
 * @param name the function given the route, as errors name it; default `validate()`
 */
export function planRoute(route: AnyRoute, name = 'validate()'): RoutePlan {
  const hit = cache.get(route)
  if (hit !== undefined) return hit
  checkRoute(route, name)
  const allErrors = route.allErrors ?? false
  if (typeof allErrors !== 'boolean')
    throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: ${name}: allErrors must be a boolean`)
  if (route.transform !== undefined && typeof route.transform !== 'function') {
    throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: ${name}: transform must be a function`)
  }
  checkSecurity(route.security, `${name}: security`)
  const timeout = routeTimeout(route.timeout, `${name}: timeout`)
  const codes = routeErrorCodes(route.errors, name)
  const sanitize = route.sanitize
  checkNested(sanitize, 'sanitize', exposureKeys)
  resolveExposure(sanitize, debugExposure(true), 'sanitize')
  checkNested(route.warnings, 'warnings', warningKeys)
  const schemaWarning =
    checkBoolean(route.warnings?.missingResponseSchema, 'warnings.missingResponseSchema') ?? true
  const adapters = new Map<IssuePart, SchemaAdapter>()
  for (const part of [...parts, ...cookieSlots])
    if (route[part] !== undefined) adapters.set(part, adapterOf(route[part], part))
  warnRiskyPatterns(adapters)
  if (route.response !== undefined && route.sends !== undefined && route.response !== route.sends) {
    throw optionError(
      'SG_ERR_OPTION_CONFLICT',
      `shapeguard: ${name}: response and sends are both given, give the response schema as one of them`,
    )
  }
  const response = route.response ?? route.sends
  const stripper = response === undefined ? undefined : stripperOf(response, 'response')
  const streams = streamsOf(route, name, timeout)

  const deprecation = resolveDeprecation(
    route.deprecated,
    route.externalDocs,
    `${name}: deprecated`,
  )
  const steps: Step[] = deprecation === undefined ? [] : [deprecationStep(deprecation)]
  steps.push(guardStep(route.limits, queryArrayKeys(adapters.get('query'))))
  if (route.rateLimit !== undefined) steps.push(rateLimitStep(route.rateLimit))
  // After the rate limit (a client trying credentials is limited), before anything reads the body.
  // `security: []` is public whatever the app's default: no step.
  if (route.security?.length !== 0) steps.push(authStep(route.security))
  // Before the schemas: the body schema validates the text fields the multipart body holds.
  if (route.files !== undefined) {
    const bodyKeys = queryArrayKeys(adapters.get('body'))
    steps.push(multipartStep(route.files, route.limits, bodyKeys, name))
  }
  for (const [part, adapter] of adapters) {
    const validator = compile(adapter)
    warnCompileFallback(part, adapter, validator)
    if (part === 'cookies' || part === 'signedCookies') {
      const source = part === 'cookies' ? cookieSource : signedCookieSource(declaredNames(adapter))
      steps.push(cookieStep(part, source, validator, allErrors, sanitize))
    } else steps.push(partStep(part, validator, allErrors, sanitize))
  }
  if (route.cache !== undefined) steps.push(cacheStep(route.cache))
  if (route.transform !== undefined) steps.push(transformStep(route.transform))
  if (streams?.sse !== undefined) steps.push(streamStep())
  const compiled = Object.freeze({
    steps: Object.freeze(steps),
    stripper,
    schemaWarning,
    codes,
    streams,
    timeout: route.timeout === undefined ? undefined : timeout,
  })
  cache.set(route, compiled)
  return compiled
}

// Compiled here, like the request parts, so that every compiler fallback is reported from one place.
function stripperOf(schema: unknown, field: string): ResponseStripper {
  const adapter = adapterOf(schema, field)
  const validator = compile(adapter)
  warnCompileFallback(field, adapter, validator)
  return responseStripper(adapter, validator)
}

// `events` (one stripper per event name) or `stream`; a route may also have `response`, for a
// handler that answers JSON or streams. `error` is the name of the stream's final error event.
function streamsOf(
  route: AnyRoute,
  name: string,
  limitsFor: (config: ResolvedConfig) => ResolvedTimeout | undefined,
): RouteStreams | undefined {
  const { events, stream } = route
  if (events === undefined && stream === undefined) return undefined
  if (events !== undefined && stream !== undefined) {
    throw optionError(
      'SG_ERR_OPTION_CONFLICT',
      `shapeguard: ${name}: events and stream are both given, a route streams Server-Sent Events or NDJSON`,
    )
  }
  if (events === undefined) return routeStreams(undefined, stripperOf(stream, 'stream'), limitsFor)
  const problem = isSchema(events as object)
    ? 'events must be an object of one schema per event name, e.g. { token: schema }'
    : eventsProblem(events)
  if (problem !== undefined)
    throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: ${name}: ${problem}`)
  const strippers = new Map<string, ResponseStripper>()
  for (const event of Object.keys(events as object)) {
    strippers.set(event, stripperOf(events[event], `events.${event}`))
  }
  return routeStreams(strippers, undefined, limitsFor)
}

function adapterOf(schema: unknown, field: string): SchemaAdapter {
  try {
    return toAdapter(schema)
  } catch (err) {
    // The resolver's message names shapeguard already: the field goes after that prefix. Its
    // code is kept when it is a misuse code (a library's own error may carry another).
    const own = (err as { code?: unknown } | undefined)?.code
    const code: MisuseCode =
      typeof own === 'string' && Object.hasOwn(misuseCodes, own)
        ? (own as MisuseCode)
        : 'SG_ERR_NOT_A_SCHEMA'
    throw optionError(code, `shapeguard: ${field}: ${unprefixed((err as Error).message)}`)
  }
}
