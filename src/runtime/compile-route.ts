import type { Request, Response } from 'express'
import { toAdapter } from '../adapters/resolve.js'
import type { SchemaAdapter } from '../engine/adapter.js'
import { compile, type PartValidator } from '../engine/compile.js'
import type { Issue, RequestPart, Result } from '../engine/result.js'
import {
  checkContentType,
  type GuardLimits,
  guardBody,
  guardQuery,
  resolveLimits,
} from './guards/index.js'
import { BODY_REQUIRED, validationError } from './issue-details.js'
import { arrayKeysOf, bodyInput, normaliseStrings, setQuery } from './request-input.js'
import { debugExposure, type ResolvedConfig, resolveExposure } from './resolve-config.js'
import type { AnyRoute } from './route-types.js'
import { type PrepareData, responseStripper } from './strip-response.js'

/** One step of a guarded request; returns a promise only when it had to wait (async schemas). */
export type Step = (
  req: Request,
  res: Response,
  config: ResolvedConfig,
) => Promise<void> | undefined

/** A route compiled at definition: its steps in pipeline order and its response stripper. */
export interface CompiledRoute {
  readonly steps: readonly Step[]
  readonly prepare: PrepareData | undefined
}

const parts = ['body', 'params', 'query', 'headers'] as const satisfies readonly RequestPart[]
const cache = new WeakMap<object, CompiledRoute>()

/**
 * Compiles a route once (cached by the route object): schemas to validators, limits, the query's
 * array keys, the steps of SPEC.md 3.1. Throws at definition naming a bad field or option.
 */
export function compileRoute(route: AnyRoute): CompiledRoute {
  if (typeof route !== 'object' || route === null) {
    throw new TypeError(
      'shapeguard: validate() takes a route: { body?, params?, query?, headers?, response? … }',
    )
  }
  const hit = cache.get(route)
  if (hit !== undefined) return hit
  const allErrors = route.allErrors ?? false
  if (typeof allErrors !== 'boolean') throw new TypeError('shapeguard: allErrors must be a boolean')
  if (route.transform !== undefined && typeof route.transform !== 'function') {
    throw new TypeError('shapeguard: transform must be a function')
  }
  const sanitize = route.sanitize
  resolveExposure(sanitize, debugExposure(true), 'sanitize')
  const adapters = new Map<RequestPart, SchemaAdapter>()
  for (const part of parts)
    if (route[part] !== undefined) adapters.set(part, adapterOf(route[part], part))
  if (route.response !== undefined && route.sends !== undefined && route.response !== route.sends) {
    throw new TypeError('shapeguard: give the response schema as response or as sends, not both')
  }
  const response = route.response ?? route.sends
  const prepare =
    response === undefined ? undefined : responseStripper(adapterOf(response, 'response'))

  const steps: Step[] = [guardStep(route.limits, arrayKeysOf(adapters.get('query')?.ir))]
  // Rate-limit step: inserted here (after the guards, before any schema) by the rate-limit issue.
  for (const [part, adapter] of adapters) {
    steps.push(partStep(part, compile(adapter), allErrors, sanitize))
  }
  // Cache-Control step: inserted here (only after validation succeeded) by the cache issue.
  if (route.transform !== undefined) steps.push(transformStep(route.transform))
  const compiled = Object.freeze({ steps: Object.freeze(steps), prepare })
  cache.set(route, compiled)
  return compiled
}

function adapterOf(schema: unknown, field: string): SchemaAdapter {
  try {
    return toAdapter(schema)
  } catch (err) {
    throw new TypeError(`${field}: ${(err as Error).message}`)
  }
}

function guardStep(
  routeLimits: Partial<GuardLimits> | undefined,
  arrayKeys: ReadonlySet<string>,
): Step {
  let limitsFor = (config: ResolvedConfig): GuardLimits => config.validation.limits
  if (routeLimits !== undefined) {
    resolveLimits(undefined, routeLimits)
    // Route limits over each app's global limits, merged once per shapeguard() instance.
    const merged = new WeakMap<ResolvedConfig, GuardLimits>()
    limitsFor = (config) => {
      let limits = merged.get(config)
      if (limits === undefined) {
        limits = resolveLimits(config.validation.limits, routeLimits)
        merged.set(config, limits)
      }
      return limits
    }
  }
  return function guards(req, _res, config) {
    checkContentType(req)
    if (req.body !== undefined) req.body = guardBody(req.body, limitsFor(config))
    setQuery(req, guardQuery(req.query, arrayKeys))
    return undefined
  }
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

function partStep(
  part: RequestPart,
  validator: PartValidator,
  allErrors: boolean,
  sanitize: AnyRoute['sanitize'],
): Step {
  const [read, write, normalises] = io[part]
  function settle(r: Result, req: Request, config: ResolvedConfig, missing: boolean): undefined {
    if (r.success) {
      write(req, r.data)
      return undefined
    }
    const issues: readonly Issue[] = missing
      ? [{ path: [], message: BODY_REQUIRED, code: 'required' }]
      : r.issues
    const exposure =
      sanitize === undefined
        ? config.validation.exposure
        : resolveExposure(sanitize, config.validation.exposure, 'sanitize')
    throw validationError(issues, part, allErrors, exposure)
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

function transformStep(transform: (body: unknown) => unknown): Step {
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
