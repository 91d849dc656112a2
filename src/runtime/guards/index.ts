/**
 * Pre-parse guards (SPEC.md 7.2, API.md decisions 4, 5, 15, 16): run on every guarded request
 * before any schema. Each throws an `AppError` with its registry code and status.
 *
 * CONTRACT PENDING IMPLEMENTATION: the signatures below are fixed; the guards engineer replaces
 * the bodies and splits the concepts into their own files, re-exported from here.
 */
import type { Request } from 'express'

/** Size limits of a request body; `validation.limits` globally, `limits` per route. */
export interface GuardLimits {
  /** Nested objects and arrays; the body itself is level 1, scalars add none. @default 20 */
  readonly maxDepth: number
  /** Longest array anywhere in the body. @default 1000 */
  readonly maxArrayLength: number
  /** Longest string anywhere in the body (keys included). @default 10000 */
  readonly maxStringLength: number
}

/** Route limits over global limits over the defaults; throws at mount time naming a bad option. */
export declare function resolveLimits(
  global?: Partial<GuardLimits>,
  route?: Partial<GuardLimits>,
): GuardLimits

/**
 * One pass over a parsed body: `__proto__` anywhere → 400 PROTO_POLLUTION; depth, array and
 * string limits → BODY_TOO_DEEP / BODY_ARRAY_TOO_LARGE / STRING_TOO_LONG; removes `constructor`
 * and `prototype` keys and sanitises strings (null bytes, zero-width characters, bidi overrides).
 * Returns the cleaned body. Never touches `Object.prototype`, never overflows the stack.
 */
export declare function guardBody(body: unknown, limits: GuardLimits): unknown

/** 415 INVALID_CONTENT_TYPE for a POST/PUT/PATCH that carries a body the parsers do not understand. */
export declare function checkContentType(req: Request): void

/**
 * 400 PARAM_POLLUTION for the first repeated query key (an array value) that the route's query
 * schema does not declare as an array; returns the query with its strings sanitised.
 */
export declare function guardQuery(query: unknown, arrayKeys: ReadonlySet<string>): unknown
