/**
 * Pre-parse guards (SPEC.md 7.2, API.md decisions 4, 5, 15, 16): run on every guarded request
 * before any schema. Each throws an `AppError` with its registry code and status.
 */
export { guardBody } from './body-guard.js'
export { checkContentType } from './content-type.js'
export { type GuardLimits, resolveLimits } from './limits.js'
export { guardQuery } from './query-guard.js'
