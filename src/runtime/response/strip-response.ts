import type { SchemaAdapter } from '../../engine/adapter.js'
import { compile } from '../../engine/compile.js'
import { compileJson, type JsonWriter } from '../../engine/compile-json.js'
import type { Issue } from '../../engine/result.js'
import { type AppError, raise } from '../errors/app-error.js'
import { warnCompileFallback } from '../pipeline/warn-compile-fallback.js'

/** Passes a success helper's `data` through the response schema; throws instead of sending bad data. */
export interface PrepareData {
  (data: unknown): unknown
  /**
   * The stripped data's JSON text in one walk (the compiled writer), or undefined where it does
   * not answer and the stripper and `JSON.stringify` run instead; absent without a compiled path.
   */
  readonly json?: JsonWriter | undefined
}

// A bare schema of these libraries given as `response`: what to wrap it in instead.
const wrappers = new Map([
  ['valibot', "valibotAdapter(schema) from 'shapeguard/adapters/valibot', with no async checks"],
])

function vendorOf(adapter: SchemaAdapter): string | undefined {
  if (adapter.library !== 'standard-schema') return undefined
  const vendor = (adapter.schema as { '~standard'?: { vendor?: unknown } })['~standard']?.vendor
  return typeof vendor === 'string' ? vendor : undefined
}

/**
 * The response-stripping step, compiled once per route: `data` is parsed by the response schema,
 * so fields it does not declare never leave. Data that fails the schema is never sent: the helper
 * throws a programmer error (500 INTERNAL_ERROR, the fallback message in production, a message
 * naming the field and the failed check in development; never any of the data itself, whatever
 * the library's own message says).
 * @throws TypeError at definition when the schema answers asynchronously (a bare valibot schema
 * with async checks): a response is sent synchronously.
 */
export function responseStripper(adapter: SchemaAdapter): PrepareData {
  if (adapter.async) {
    const vendor = vendorOf(adapter)
    const wrap = vendor === undefined ? undefined : wrappers.get(vendor)
    throw new TypeError(
      wrap === undefined
        ? `shapeguard: response: a response schema must be synchronous (this ${adapter.library} schema has async checks)`
        : `shapeguard: response: a bare ${vendor} schema validates asynchronously, and a response is checked synchronously; wrap it: ${wrap}`,
    )
  }
  const validator = compile(adapter)
  warnCompileFallback('response', adapter, validator)
  const trustCode = adapter.library !== 'standard-schema'
  function stripResponse(data: unknown): unknown {
    const result = validator.validate(data, false)
    if (result instanceof Promise) {
      // A Standard Schema that turned out to be async: its rejection must not go unobserved.
      result.catch(() => undefined)
      throw responseError('the response schema answered asynchronously')
    }
    if (result.success) return result.data
    throw responseError(describeIssue(result.issues[0], trustCode))
  }
  return Object.assign(stripResponse, { json: compileJson(adapter) })
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
