/**
 * Pre-parse guards: run on every guarded request
 * before any schema, after the host's body parsers. Each throws an `AppError` with its registry
 * code and status. The pipeline's contract:
 * - `checkContentType(req, onUnparsed?)`: 415 for a body of a type no parser understands or parsed
 *   (`onUnparsed` hears of the latter, the server's mistake);
 * - `guardBody(body, limits)` and `guardQuery(query, arrayKeys, limits)`: the same merged limits
 *   (`resolveLimits(global, route)`), each returning the part cleaned;
 * - `sanitizeParams(params, limits)`: cleans route param values in place; 400 for one too long.
 */
export { guardBody } from './body-guard.js'
export { checkContentType, type Unparsed } from './content-type.js'
export { type GuardLimits, resolveLimits } from './limits.js'
export { sanitizeParams } from './params-guard.js'
export { guardQuery } from './query-guard.js'
