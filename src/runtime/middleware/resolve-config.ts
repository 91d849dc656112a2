import {
  checkBoolean,
  checkFunction,
  checkNested,
  checkOptions,
} from '../../shared/check-option.js'
import type { ResponseShape } from '../../shared/envelope-shape.js'
import { optionError } from '../../shared/error-codes.js'
import type { SecurityRequirement } from '../../shared/security-scheme.js'
import { resolveAuth } from '../auth/resolve-auth.js'
import type { AuthConfig, SchemeName } from '../auth/types.js'
import { type CookieOptions, resolveCookieOptions } from '../cookies/cookie-options.js'
import {
  debugFromEnv,
  type Exposure,
  type GuardLimits,
  type ResolvedConfig,
} from '../core/config.js'
import { type ErrorsOptions, resolveErrors } from '../core/resolve-errors.js'
import { resolveLimits } from '../guards/index.js'
import { type OverloadOptions, resolveOverload } from '../lifecycle/overload-options.js'
import { resolveTimeout, type TimeoutOption } from '../lifecycle/timeout-options.js'
import type { LoggerOptions } from '../logging/options.js'
import { compileShape } from '../response/envelope.js'

/** HTTP methods whose default success status `response.statusCodes` can change. */
export type SuccessStatusMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** Configuration of `shapeguard()`. */
export interface ShapeguardConfig {
  /** Development mode: real messages and stacks of programmer errors, warnings. @default `NODE_ENV !== 'production'` at mount time */
  debug?: boolean
  /** Logging options; `instance` is checked at mount time and used by errorHandler. */
  logger?: LoggerOptions
  /** How every request gets its ID (`req.id`). */
  requestId?: RequestIdOptions
  /** String normalisation, pre-parse limits and what validation errors show, for every route. */
  validation?: ValidationOptions
  /** The success envelope: its field names, its status per method, the request ID header. */
  response?: {
    /** Renames the envelope fields, e.g. `{ ok: '{success}', result: '{data}', msg: '{message}' }`. */
    shape?: ResponseShape
    /** Default `res.ok` status per method. @default POST 201, others 200 */
    statusCodes?: Partial<Record<SuccessStatusMethod, number>>
    /** Sends the request ID as `X-Request-Id` on every response. @default false */
    includeRequestId?: boolean
  }
  /** The development warnings that can be turned off, each on by default. */
  warnings?: WarningOptions
  /** Signed cookies: the secrets that sign and verify them (a route's `signedCookies`). */
  cookies?: CookieOptions
  /**
   * The security schemes by name, each with its verifier: `bearer` and `basic` take a verifier
   * alone, an API key `{ in, name, verify }`, any other `{ type: 'custom', verify, document }`.
   * A route's `security` enforces them; generateOpenAPI documents them.
   */
  auth?: AuthConfig
  /** The `security` of every guarded route without its own (`[]` on a route keeps it public). @default none: routes are public */
  defaultSecurity?: SecurityRequirement<SchemeName>
  /** How errors are answered. */
  errors?: ErrorsOptions
  /** The time limits of every guarded route without its own `timeout`: milliseconds for the handler, or `{ handler, idle, total, retryAfter }`. */
  timeout?: TimeoutOption
  /** Load shedding: past a limit, every request but health checks is answered 503 OVERLOADED before any work. */
  overload?: OverloadOptions
}

/** Development warnings (`shapeguard()`'s `warnings`, a route's `warnings`); none is logged in production. */
export interface WarningOptions {
  /** Warns once per route when a success helper sends data on a route without a response schema, whose every field then reaches the client. @default true */
  missingResponseSchema?: boolean
}

/** The keys of `warnings`, of shapeguard() and of a route. */
export const warningKeys = ['missingResponseSchema'] as const

/** `requestId` options of `shapeguard()`. */
export interface RequestIdOptions {
  /** When false, `req.id` is the empty string. @default true */
  enabled?: boolean
  /** Upstream header whose value is reused when it is 1–128 of `[A-Za-z0-9._:-]`. @default 'x-request-id' */
  header?: string
  /** Called once per request; must return a non-empty string. @default `req_` + 12 + 12 hex digits */
  generator?: () => string
}

/** What validation error details show (per route: `sanitize`). */
export interface ExposureOptions {
  /** `field` names the failing field; when false it names only the request part. @default true */
  exposeFieldName?: boolean
  /** The schema's message; when false every message is `Invalid value`. @default true */
  exposeMessage?: boolean
  /** Enum and literal options in messages; when false they read `Invalid option`. @default `debug` (true in development) */
  exposeEnumValues?: boolean
  /** Adds the schema library's issue `code`. @default false */
  exposeSchemaCodes?: boolean
}

/** `validation` options of `shapeguard()`. */
export interface ValidationOptions extends ExposureOptions {
  /** Applied to every string of body, params and query before the schemas run. */
  strings?: {
    /** Trims whitespace from both ends of every string. @default false */
    trim?: boolean
    /** Lower-cases every string. @default false */
    lowercase?: boolean
  }
  /** Pre-parse limits of every guarded route; a route's `limits` take precedence. */
  limits?: Partial<GuardLimits>
}

const defaults = Object.freeze({
  statusCodes: Object.freeze({ GET: 200, POST: 201, PUT: 200, PATCH: 200, DELETE: 200 }),
})

// Options of a route, not of the app: given to shapeguard() they would silently do nothing.
function perRouteOnly(config: object): void {
  for (const key of ['rateLimit', 'cache']) {
    if ((config as Record<string, unknown>)[key] !== undefined) {
      throw optionError(
        'SG_ERR_MISPLACED_OPTION',
        `shapeguard: shapeguard(): ${key} is an option of a route, give it to validate(), handle() or defineRoute()`,
      )
    }
  }
}

/** The exposure options, of `validation` and of a route's `sanitize`. */
export const exposureKeys = [
  'exposeFieldName',
  'exposeMessage',
  'exposeEnumValues',
  'exposeSchemaCodes',
] as const

/**
 * Throws at mount time for a misspelt or misplaced key anywhere in `shapeguard()`'s configuration
 * (`loger`, `validation.strigs`). `logger` is checked by the logging options, `validation.limits`
 * by the guards' limits.
 */
function checkKeys(config: ShapeguardConfig): void {
  // A route's option first, with a message saying where it goes.
  if (typeof config === 'object' && config !== null) perRouteOnly(config)
  checkOptions(
    config,
    [
      'debug',
      'logger',
      'requestId',
      'validation',
      'response',
      'warnings',
      'errors',
      'cookies',
      'auth',
      'defaultSecurity',
      'timeout',
      'overload',
    ],
    'shapeguard()',
  )
  checkNested(config.requestId, 'requestId', ['enabled', 'header', 'generator'])
  checkNested(config.validation, 'validation', ['strings', 'limits', ...exposureKeys])
  checkNested(config.validation?.strings, 'validation.strings', ['trim', 'lowercase'])
  checkNested(config.response, 'response', ['shape', 'statusCodes', 'includeRequestId'])
  checkNested(config.warnings, 'warnings', warningKeys)
  checkNested(config.errors, 'errors', ['fallbackMessage', 'onError', 'format', 'problemTypeBase'])
}

/** Applies defaults and checks every option; throws a message naming the bad option. */
export function resolveConfig(config: ShapeguardConfig = {}): ResolvedConfig {
  checkKeys(config)
  const debug = checkBoolean(config.debug, 'debug') ?? debugFromEnv()
  const v = config.validation
  return Object.freeze({
    debug,
    requestId: Object.freeze({
      enabled: checkBoolean(config.requestId?.enabled, 'requestId.enabled') ?? true,
      header: checkHeader(config.requestId?.header),
      generator: checkFunction(config.requestId?.generator, 'requestId.generator'),
    }),
    validation: Object.freeze({
      trim: checkBoolean(v?.strings?.trim, 'validation.strings.trim') ?? false,
      lowercase: checkBoolean(v?.strings?.lowercase, 'validation.strings.lowercase') ?? false,
      exposure: resolveExposure(v, debugExposure(debug), 'validation'),
      limits: resolveLimits(v?.limits),
    }),
    response: Object.freeze({
      shape: compileShape(config.response?.shape),
      statusCodes: resolveStatusCodes(config.response?.statusCodes),
      includeRequestId:
        checkBoolean(config.response?.includeRequestId, 'response.includeRequestId') ?? false,
    }),
    // Decided here, with debug: production pays one false per answer.
    warnings: Object.freeze({
      missingResponseSchema:
        (checkBoolean(config.warnings?.missingResponseSchema, 'warnings.missingResponseSchema') ??
          true) &&
        debug,
    }),
    errors: resolveErrors(config.errors),
    cookies: resolveCookieOptions(config.cookies),
    auth: resolveAuth(config.auth, config.defaultSecurity),
    timeout: resolveTimeout(config.timeout, 'timeout'),
    overload: resolveOverload(config.overload),
  })
}

const exposures = {
  dev: Object.freeze({ fieldName: true, message: true, enumValues: true, schemaCodes: false }),
  prod: Object.freeze({ fieldName: true, message: true, enumValues: false, schemaCodes: false }),
}

/** The exposure defaults for a `debug` setting (enum values are shown in development only). */
export function debugExposure(debug: boolean): Exposure {
  return debug ? exposures.dev : exposures.prod
}

/**
 * Exposure options over a base (the defaults, or the global ones for a route's `sanitize`);
 * throws naming `<where>.<option>` when a value is not a boolean.
 */
export function resolveExposure(
  given: ExposureOptions | undefined,
  base: Exposure,
  where: string,
): Exposure {
  if (given === undefined) return base
  const fieldName = checkBoolean(given.exposeFieldName, `${where}.exposeFieldName`)
  const message = checkBoolean(given.exposeMessage, `${where}.exposeMessage`)
  const enumValues = checkBoolean(given.exposeEnumValues, `${where}.exposeEnumValues`)
  const schemaCodes = checkBoolean(given.exposeSchemaCodes, `${where}.exposeSchemaCodes`)
  if (
    fieldName === undefined &&
    message === undefined &&
    enumValues === undefined &&
    schemaCodes === undefined
  )
    return base
  return Object.freeze({
    fieldName: fieldName ?? base.fieldName,
    message: message ?? base.message,
    enumValues: enumValues ?? base.enumValues,
    schemaCodes: schemaCodes ?? base.schemaCodes,
  })
}

function checkHeader(header: string | undefined): string {
  if (header === undefined) return 'x-request-id'
  // An HTTP token (RFC 9110), checked once at mount time.
  if (typeof header !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header)) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      'shapeguard: requestId.header: must be a header name',
    )
  }
  return header.toLowerCase()
}

function resolveStatusCodes(
  given: Partial<Record<SuccessStatusMethod, number>> | undefined,
): Readonly<Record<string, number>> {
  if (given === undefined) return defaults.statusCodes
  const out: Record<string, number> = { ...defaults.statusCodes }
  for (const [method, status] of Object.entries(given)) {
    if (!(method in defaults.statusCodes)) {
      throw optionError(
        'SG_ERR_UNKNOWN_OPTION',
        `shapeguard: response.statusCodes: ${method} is not an option (GET, POST, PUT, PATCH, DELETE)`,
      )
    }
    if (!Number.isInteger(status) || (status as number) < 200 || (status as number) > 299) {
      throw optionError(
        'SG_ERR_INVALID_OPTION',
        `shapeguard: response.statusCodes.${method}: must be a 2xx status`,
      )
    }
    out[method] = status as number
  }
  return Object.freeze(out)
}
