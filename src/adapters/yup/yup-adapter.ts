import { type AnySchema, type InferType, ValidationError } from 'yup'
import { defineAdapter, type SchemaAdapter } from '../../engine/adapter.js'
import type { Issue, Result } from '../../engine/result.js'
import { linearSchema } from './linear-schema.js'
import { issueMessage } from './messages.js'
import { type YupLike, yupToIR } from './to-ir.js'

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

function toIssues(error: ValidationError): Issue[] {
  const list = error.inner.length > 0 ? error.inner : [error]
  return list.map((e) => ({
    path: splitPath(e.path),
    message: issueMessage(e),
    code: e.type ?? 'invalid',
  }))
}

function isYupSchema(value: unknown): value is YupLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { __isYupSchema__?: unknown }).__isYupSchema__ === true &&
    typeof (value as { validateSync?: unknown }).validateSync === 'function'
  )
}

/** Options of `yupAdapter`. */
export interface YupAdapterOptions {
  /** Remove keys an object schema does not declare, at every depth (default true). */
  readonly stripUnknown?: boolean
}

// One cache per stripUnknown setting: the same schema gives two different adapters.
const caches = {
  strip: new WeakMap<object, SchemaAdapter>(),
  keep: new WeakMap<object, SchemaAdapter>(),
}

/**
 * Wraps a yup 1 schema as a schema adapter: its IR (casting, defaults and unknown keys reproduced
 * as yup does them) for the compiled fast path and the docs, and yup's own `validateSync` for
 * every rejection (`abortEarly` when only the first error is wanted, as yup does by default).
 * Unknown keys are removed at every depth, as yup's `stripUnknown: true` does; a schema with async
 * tests is validated with `validate`.
 * @param schema a yup schema; the same schema object always gives the same adapter.
 * @param options `stripUnknown` (default true): false keeps unknown keys, as yup does by default.
 * @example const body = yupAdapter(object({ name: string().required().min(2) }))
 */
export function yupAdapter<S extends AnySchema>(
  schema: S,
  options: YupAdapterOptions = {},
): SchemaAdapter<InferType<S>, InferType<S>> {
  if (!isYupSchema(schema as unknown)) throw new TypeError('yupAdapter: expected a yup 1 schema')
  const stripUnknown = options.stripUnknown ?? true
  if (typeof stripUnknown !== 'boolean') {
    throw new TypeError('yupAdapter: stripUnknown must be a boolean')
  }
  const cache = stripUnknown ? caches.strip : caches.keep
  const hit = cache.get(schema)
  if (hit) return hit as SchemaAdapter<InferType<S>, InferType<S>>
  // Without the option yup keeps unknown keys, except under noUnknown() / stripUnknown().
  const strip = stripUnknown ? { stripUnknown: true } : {}
  const all = { abortEarly: false, ...strip }
  const first = { abortEarly: true, ...strip }
  // yup's own validation, with its backtracking patterns swapped for linear equivalents.
  const native = linearSchema(schema)
  const parseAsync = async (input: unknown, options: object): Promise<Result<InferType<S>>> => {
    try {
      return { success: true, data: await native.validate(input, options) }
    } catch (e) {
      if (e instanceof ValidationError) return { success: false, issues: toIssues(e) }
      throw e
    }
  }
  const adapter = defineAdapter<InferType<S>, InferType<S>>({
    library: 'yup',
    schema,
    ir: yupToIR(schema as unknown as YupLike, stripUnknown),
    async: false,
    parse(input, allErrors) {
      const options = allErrors === false ? first : all
      try {
        return { success: true, data: native.validateSync(input, options) }
      } catch (e) {
        if (e instanceof ValidationError) return { success: false, issues: toIssues(e) }
        // A test that returned a promise: yup refuses to run it synchronously, so run it async.
        if (
          e instanceof Error &&
          /returned a Promise during a synchronous validate/.test(e.message)
        )
          return parseAsync(input, options)
        throw e
      }
    },
  })
  cache.set(schema, adapter as SchemaAdapter)
  return adapter
}

export { isYupSchema }
