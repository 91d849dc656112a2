import type { Request } from 'express'
import type { PartValidator } from '../../engine/compile/compile.js'
import type { Issue, RequestPart, Result } from '../../engine/result.js'
import type { CookieSlot, CookieSource } from '../cookies/cookie-sources.js'
import type { Exposure, ResolvedConfig } from '../core/config.js'
import { setRequestField } from '../core/request-fields.js'
import type { Step } from '../core/step.js'
import {
  checkContentType,
  type GuardLimits,
  guardBody,
  guardQuery,
  sanitizeParams,
} from '../guards/index.js'
import { routeLimitsFor } from '../guards/limits.js'
import { warnUnparsedBody } from '../guards/warn-unparsed-body.js'
import { resolveExposure } from '../middleware/resolve-config.js'
import { countValidationFailure } from '../telemetry/metrics.js'
import { traceValidationFailure } from '../telemetry/spans.js'
import { BODY_REQUIRED, type IssuePart, validationError } from './issue-details.js'
import { listSingles, type QueryArrayKeys } from './query-array-keys.js'
import { bodyInput, normaliseStrings } from './request-input.js'
import type { AnyRoute } from './route-types.js'

// The steps of a guarded request, each built once per route by planRoute().

/**
 * Content type, then the body and query guards with the route's merged limits (a single value of
 * a query key that takes only arrays made a one-element array), then the route params sanitised
 * (before any params schema).
 */
export function guardStep(
  routeLimits: Partial<GuardLimits> | undefined,
  arrayKeys: QueryArrayKeys,
): Step {
  const limitsFor = routeLimitsFor(routeLimits)
  return function guards(req, _res, config) {
    checkContentType(req, warnUnparsedBody)
    const limits = limitsFor(config)
    if (req.body !== undefined) req.body = guardBody(req.body, limits)
    const query = req.query
    // An empty query (most POSTs) has nothing to keep: Express 5's getter makes the same `{}`.
    if (!isEmpty(query)) {
      const guarded = guardQuery(query, arrayKeys.repeatable, limits)
      setQuery(req, listSingles(guarded, arrayKeys.lists))
    }
    sanitizeParams(req.params, limits)
    return undefined
  }
}

// No key to check or clean: guardQuery would hand the same value back, with nothing to keep.
function isEmpty(query: unknown): boolean {
  if (typeof query !== 'object' || query === null) return false
  for (const _ in query) return false
  return true
}

/**
 * Makes `value` the request's `query`: Express 4's own property is written; Express 5's getter
 * is shadowed by an own property (see core/request-fields.ts).
 */
function setQuery(req: Request, value: unknown): void {
  setRequestField(req, 'query', value)
}

/** Where a part's input comes from and its validated value goes; `refuse` fails it before its schema runs. */
interface Source {
  read(req: Request, config: ResolvedConfig): unknown
  write(req: Request, value: unknown): void
  /** Its strings are trimmed and lower-cased by `validation.strings`. */
  readonly normalises?: boolean
  refuse?(req: Request, config: ResolvedConfig): readonly Issue[] | undefined
}

const sources: Record<RequestPart, Source> = {
  body: { read: bodyInput, write: (req, v) => (req.body = v), normalises: true },
  params: {
    read: (req) => req.params,
    write: (req, v) => (req.params = v as Request['params']),
    normalises: true,
  },
  query: { read: (req) => req.query, write: setQuery, normalises: true },
  // Validated headers land on a copy of the original, so undeclared headers stay readable.
  headers: {
    read: (req) => req.headers,
    write: (req, v) => (req.headers = { ...req.headers, ...(v as object) }),
  },
}

/** Validates one request part with its schema; the validated, stripped value replaces it. */
export function partStep(
  part: RequestPart,
  validator: PartValidator,
  allErrors: boolean,
  sanitize: AnyRoute['sanitize'],
): Step {
  return validationStep(part, sources[part], validator, allErrors, sanitize)
}

/** Validates a cookie slot with its schema, read from and written to its source (cookies/). */
export function cookieStep(
  slot: CookieSlot,
  source: CookieSource,
  validator: PartValidator,
  allErrors: boolean,
  sanitize: AnyRoute['sanitize'],
): Step {
  return validationStep(slot, source, validator, allErrors, sanitize)
}

function validationStep(
  part: IssuePart,
  source: Source,
  validator: PartValidator,
  allErrors: boolean,
  sanitize: AnyRoute['sanitize'],
): Step {
  const { read, write, normalises = false, refuse } = source
  // The route's `sanitize` over each app's exposure options, merged once per shapeguard() instance.
  const merged = new WeakMap<ResolvedConfig, Exposure>()
  function exposureFor(config: ResolvedConfig): Exposure {
    if (sanitize === undefined) return config.validation.exposure
    let exposure = merged.get(config)
    if (exposure === undefined) {
      exposure = resolveExposure(sanitize, config.validation.exposure, 'sanitize')
      merged.set(config, exposure)
    }
    return exposure
  }
  function fail(issues: readonly Issue[], req: Request, config: ResolvedConfig): never {
    const error = validationError(issues, part, allErrors, exposureFor(config))
    traceValidationFailure(part, Array.isArray(error.details) ? error.details.length : 1)
    countValidationFailure(req, part)
    throw error
  }
  function settle(r: Result, req: Request, config: ResolvedConfig, missing: boolean): undefined {
    if (r.success) {
      write(req, r.data)
      return undefined
    }
    fail(missing ? [{ path: [], message: BODY_REQUIRED, code: 'required' }] : r.issues, req, config)
  }
  return function validatePart(req, _res, config) {
    const refused = refuse?.(req, config)
    if (refused !== undefined) fail(refused, req, config)
    let input = read(req, config)
    const { trim, lowercase } = config.validation
    if (normalises && (trim || lowercase)) input = normaliseStrings(input, trim, lowercase)
    const missing = part === 'body' && input === undefined
    const r = validator.validate(input, allErrors)
    if (r instanceof Promise) return r.then((x) => settle(x, req, config, missing))
    return settle(r, req, config, missing)
  }
}

export function transformStep(transform: (body: unknown) => unknown): Step {
  return function transformBody(req) {
    const out = transform(req.body)
    if (out instanceof Promise) {
      return out.then((v) => {
        req.body = v
      })
    }
    req.body = out
    return undefined
  }
}
