import type { Request } from 'express'
import type { PartValidator } from '../../engine/compile/compile.js'
import type { Issue, RequestPart, Result } from '../../engine/result.js'
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
import { BODY_REQUIRED, validationError } from './issue-details.js'
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

type Read = (req: Request) => unknown
type Write = (req: Request, value: unknown) => void

const io: Record<RequestPart, readonly [Read, Write, boolean]> = {
  body: [bodyInput, (req, v) => (req.body = v), true],
  params: [(req) => req.params, (req, v) => (req.params = v as Request['params']), true],
  query: [(req) => req.query, setQuery, true],
  // Validated headers land on a copy of the original, so undeclared headers stay readable.
  headers: [
    (req) => req.headers,
    (req, v) => (req.headers = { ...req.headers, ...(v as object) }),
    false,
  ],
}

export function partStep(
  part: RequestPart,
  validator: PartValidator,
  allErrors: boolean,
  sanitize: AnyRoute['sanitize'],
): Step {
  const [read, write, normalises] = io[part]
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
  function settle(r: Result, req: Request, config: ResolvedConfig, missing: boolean): undefined {
    if (r.success) {
      write(req, r.data)
      return undefined
    }
    const issues: readonly Issue[] = missing
      ? [{ path: [], message: BODY_REQUIRED, code: 'required' }]
      : r.issues
    const error = validationError(issues, part, allErrors, exposureFor(config))
    traceValidationFailure(part, Array.isArray(error.details) ? error.details.length : 1)
    countValidationFailure(req, part)
    throw error
  }
  return function validatePart(req, _res, config) {
    let input = read(req)
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
