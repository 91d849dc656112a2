import type { SchemaAdapter } from '../../engine/adapter.js'
import { compile, type PartValidator } from '../../engine/compile/compile.js'
import { compileJson } from '../../engine/compile/compile-json.js'
import type { Issue, Result } from '../../engine/result.js'
import { type AppError, raise } from '../core/app-error.js'
import type { ResponseStripper } from '../core/context.js'

// The promises a stripper answered with, told apart from data that is itself a promise.
const pending = new WeakSet<Promise<unknown>>()

/** Whether a `ResponseStripper` answer is the promise of an asynchronous schema's stripped data. */
export function isPending(value: unknown): value is Promise<unknown> {
  return value instanceof Promise && pending.has(value)
}

/**
 * The response-stripping step, compiled once per route: `data` is parsed by the response schema,
 * so fields it does not declare never leave. Data that fails the schema is never sent: the helper
 * throws a programmer error (500 INTERNAL_ERROR, the fallback message in production, a message
 * naming the field and the failed check in development; never any of the data itself, whatever
 * the library's own message says). A schema that answers asynchronously (async checks, a
 * Standard Schema whose `validate` returns a promise) gives a promise (`isPending`) of the
 * stripped data, rejected with that same error.
 * @param validator the response schema compiled by `planRoute()`, which reports a compiler
 * fallback; default `compile(adapter)`
 */
export function responseStripper(
  adapter: SchemaAdapter,
  validator: PartValidator = compile(adapter),
): ResponseStripper {
  const trustCode = adapter.library !== 'standard-schema'
  function settle(result: Result<unknown>): unknown {
    if (result.success) return result.data
    throw responseError(describeIssue(result.issues[0], trustCode))
  }
  function strip(data: unknown): unknown {
    const result = validator.validate(data, false)
    if (!(result instanceof Promise)) return settle(result)
    const later = result.then(settle)
    pending.add(later)
    return later
  }
  return Object.assign(strip, { json: compileJson(adapter) })
}

// From the path and the issue code only: a library's message may quote the value (yup's type
// errors do), and neither the answer nor the error log may carry it. zod's, valibot's and yup's
// codes are their own constants or test names from the schema; a Standard Schema may put anything
// in its issues, so its code is not repeated.
function describeIssue(issue: Issue | undefined, trustCode: boolean): string {
  if (issue === undefined) return 'the response schema rejected it'
  const field = issue.path.length === 0 ? 'data' : `data.${issue.path.join('.')}`
  return trustCode
    ? `${field} failed the schema's \`${issue.code}\` check`
    : `${field} failed the schema`
}

function responseError(reason: string): AppError {
  // A programmer error: errorHandler sends the fallback message in production and this one in
  // development; details stay null (there is no cause, so no stack and never the data).
  return raise('INTERNAL_ERROR', `Response does not match the route's response schema (${reason})`)
}
