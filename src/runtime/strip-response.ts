import type { SchemaAdapter } from '../engine/adapter.js'
import { compile } from '../engine/compile.js'
import type { Issue } from '../engine/result.js'
import { AppError } from './app-error.js'

/** Passes a success helper's `data` through the response schema; throws instead of sending bad data. */
export type PrepareData = (data: unknown) => unknown

/**
 * The response-stripping step (SPEC.md 7.3 rules 7–8, API.md decision 17), compiled once per
 * route: `data` is parsed by the response schema, so fields it does not declare never leave.
 * Data that fails the schema is never sent: the helper throws a programmer error (500
 * INTERNAL_ERROR, the fallback message in production, a message naming the field in development;
 * never any of the data itself).
 * @throws TypeError at definition when the schema has async checks: a response is sent synchronously.
 */
export function responseStripper(adapter: SchemaAdapter): PrepareData {
  if (adapter.async) {
    throw new TypeError(
      `shapeguard: a response schema must be synchronous (this ${adapter.library} schema has async checks)`,
    )
  }
  const validator = compile(adapter)
  return function stripResponse(data) {
    const result = validator.validate(data, false)
    if (result instanceof Promise) {
      // A Standard Schema that turned out to be async: its rejection must not go unobserved.
      result.catch(() => undefined)
      throw responseError('the response schema answered asynchronously')
    }
    if (result.success) return result.data
    throw responseError(describeIssue(result.issues[0]))
  }
}

function describeIssue(issue: Issue | undefined): string {
  if (issue === undefined) return 'the response schema rejected it'
  const field = issue.path.length === 0 ? 'data' : `data.${issue.path.join('.')}`
  return `${field}: ${issue.message}`
}

function responseError(reason: string): AppError {
  // Not operational: errorHandler sends the fallback message in production and this one in
  // development; details stay null (there is no cause, so no stack and never the data).
  return new AppError(
    'INTERNAL_ERROR',
    `Response does not match the route's response schema (${reason})`,
    500,
    null,
    { isOperational: false },
  )
}
