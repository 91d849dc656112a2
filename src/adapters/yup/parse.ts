import type { Issue, Result } from '../../engine/result.js'
import { linearSchema } from './linear-schema.js'
import { issueMessage, type YupErrorLike } from './messages.js'

// No yup import: this parser also serves a bare yup schema given through Standard Schema, and the
// main entry never loads an optional peer. yup's errors are recognised by shape.
interface ValidationErrorLike extends YupErrorLike {
  readonly name: 'ValidationError'
  readonly path?: string | undefined
  readonly inner: readonly ValidationErrorLike[]
}

/** The methods of a yup schema this parser calls. */
export interface YupParsable {
  validateSync(input: unknown, options: object): unknown
  validate(input: unknown, options: object): Promise<unknown>
  cast(input: unknown, options: object): unknown
}

function isValidationError(e: unknown): e is ValidationErrorLike {
  return (
    e instanceof Error &&
    e.name === 'ValidationError' &&
    Array.isArray((e as never as ValidationErrorLike).inner)
  )
}

// `a.b[0]["x.y"]` → ['a', 'b', 0, 'x.y']
const segment = /\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]|([^.[\]]+)/g

/** Splits a yup error path (`a.b[0]["x.y"]`) into its keys and indexes. */
export function splitPath(path: string | undefined): (string | number)[] {
  if (!path) return []
  const out: (string | number)[] = []
  for (const m of path.matchAll(segment)) {
    if (m[1] !== undefined) out.push(Number(m[1]))
    else if (m[2] !== undefined) out.push(m[2].replace(/\\(.)/g, '$1'))
    else if (m[3] !== undefined) out.push(m[3])
  }
  return out
}

function toIssues(error: ValidationErrorLike): Issue[] {
  const list = error.inner.length > 0 ? error.inner : [error]
  return list.map((e) => ({
    path: splitPath(e.path),
    message: issueMessage(e),
    code: e.type ?? 'invalid',
  }))
}

// yup's casts and transforms call methods of the value (`value.toString()`, `val.trim()`): an
// object where a string is expected, or one whose own `toString` is not a function, makes them
// throw a TypeError. That is the client's mistake, answered as one.
const uncastable: Result<never> = {
  success: false,
  issues: [{ path: [], message: 'Invalid value', code: 'typeError' }],
}

function castFails(schema: YupParsable, input: unknown, options: object): boolean {
  try {
    schema.cast(input, { ...options, assert: false })
    return false
  } catch {
    return true
  }
}

/**
 * yup's own validation as a parse function: `validateSync` (`abortEarly` unless every issue is
 * wanted), `validate` for a schema with async tests, its backtracking patterns swapped for
 * linear-time equivalents, and unknown keys removed at every depth when `stripUnknown` is on.
 * @param stripUnknown false leaves yup's default (unknown keys kept, except under `noUnknown()`)
 * @example yupParser(object({ age: number() }), true)({ age: '5', x: 1 }, false) // → { success: true, data: { age: 5 } }
 */
export function yupParser(
  schema: YupParsable,
  stripUnknown: boolean,
): (input: unknown, allErrors?: boolean) => Result<unknown> | Promise<Result<unknown>> {
  const native = linearSchema(schema)
  const strip = stripUnknown ? { stripUnknown: true } : {}
  const all = { abortEarly: false, ...strip }
  const first = { abortEarly: true, ...strip }
  const fail = (e: unknown, input: unknown, options: object): Result<unknown> => {
    if (isValidationError(e)) return { success: false, issues: toIssues(e) }
    if (e instanceof TypeError && castFails(native, input, options)) return uncastable
    throw e
  }
  const parseAsync = async (input: unknown, options: object): Promise<Result<unknown>> => {
    try {
      return { success: true, data: await native.validate(input, options) }
    } catch (e) {
      return fail(e, input, options)
    }
  }
  return function parse(input, allErrors) {
    const options = allErrors === false ? first : all
    try {
      return { success: true, data: native.validateSync(input, options) }
    } catch (e) {
      // A test that returned a promise: yup refuses to run it synchronously, so run it async.
      if (e instanceof Error && /returned a Promise during a synchronous validate/.test(e.message))
        return parseAsync(input, options)
      return fail(e, input, options)
    }
  }
}
