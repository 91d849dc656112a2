import { adapterCache, defineAdapter, type SchemaAdapter } from '../../engine/adapter.js'
import type { Issue, Result } from '../../engine/result.js'
import type {
  StandardInput,
  StandardIssue,
  StandardOutput,
  StandardResult,
  StandardSchemaV1,
} from '../../engine/standard-schema.js'
import { optionError } from '../../shared/error-codes.js'
import { valueFree } from './value-free.js'

/** Whether a value implements Standard Schema v1 (an object or function with `~standard`). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false
  const props = (value as { '~standard'?: { version?: unknown; validate?: unknown } })['~standard']
  return (
    typeof props === 'object' &&
    props !== null &&
    props.version === 1 &&
    typeof props.validate === 'function'
  )
}

const keyOf = (p: PropertyKey | { key: PropertyKey }): unknown =>
  typeof p === 'object' && p !== null ? p.key : p

function segment(p: PropertyKey | { key: PropertyKey }): string | number {
  const key = keyOf(p) as PropertyKey
  return typeof key === 'symbol' ? String(key) : key
}

/**
 * What the resolver knows of a library's Standard Schema implementation: a parser to use instead
 * of `~standard.validate` (yup's is always async and keeps unknown keys), and a message writer for
 * libraries whose default messages quote the value (valibot).
 */
export interface StandardVendorHooks {
  readonly parse?: SchemaAdapter['parse']
  readonly message?: (issue: never) => string
}

// A library's message as the issue's, unless a hook writes it; without one, cleaned of the value
// at the issue's path (Joi and ArkType quote it: `with value "…"`, `(was "…")`).
function toIssue(
  issue: StandardIssue,
  input: unknown,
  message: StandardVendorHooks['message'],
): Issue {
  // The spec has no issue codes; libraries that keep one on the issue (ArkType) expose it.
  const code = (issue as { code?: unknown }).code
  // Array.from, not map: a library's path may be an Array subclass (ArkType's ReadonlyPath).
  const path = Array.from(issue.path ?? [], segment)
  return {
    path,
    message: message
      ? message(issue as never)
      : typeof issue.message === 'string'
        ? valueFree(issue.message, input, Array.from(issue.path ?? [], keyOf), path)
        : issue.message,
    code: typeof code === 'string' ? code : 'invalid',
  }
}

function toResult<O>(
  r: StandardResult<O>,
  input: unknown,
  message: StandardVendorHooks['message'],
): Result<O> {
  if (r.issues) return { success: false, issues: r.issues.map((i) => toIssue(i, input, message)) }
  return { success: true, data: r.value }
}

// Whether `validate` is known to answer with a promise before calling it: valibot's does for an
// async schema. Other libraries say nothing.
function answersAsync(schema: StandardSchemaV1): boolean {
  return schema['~standard'].vendor === 'valibot' && (schema as { async?: unknown }).async === true
}

const cached = adapterCache()

/**
 * Wraps any Standard Schema v1 object (ArkType, Effect Schema, valibot, …) as a schema adapter
 * validated natively: no IR, so no compiled path and an empty schema in the docs.
 * @param schema an object with a `~standard` property; the same object always gives the same adapter.
 * @param hooks a library's own parser or message writer (the resolver's business); default none
 * @example standardAdapter(type({ name: 'string' })).parse({ name: 'Ada' })
 */
export function standardAdapter<S extends StandardSchemaV1>(
  schema: S,
  hooks: StandardVendorHooks = {},
): SchemaAdapter<StandardInput<S>, StandardOutput<S>> {
  if (!isStandardSchema(schema)) {
    throw optionError(
      'SG_ERR_NOT_A_SCHEMA',
      'shapeguard: standardAdapter(): expected a Standard Schema v1 object (`~standard`)',
    )
  }
  return cached(schema, () => {
    const props = schema['~standard']
    const adapter = defineAdapter<StandardInput<S>, StandardOutput<S>>({
      library: 'standard-schema',
      schema,
      ir: undefined,
      async: answersAsync(schema),
      parse: (hooks.parse as never) ?? parseStandard,
    })
    function parseStandard(input: unknown) {
      const r = props.validate(input) as
        | StandardResult<StandardOutput<S>>
        | Promise<StandardResult<StandardOutput<S>>>
      const result = (out: StandardResult<StandardOutput<S>>) => toResult(out, input, hooks.message)
      // A thenable from another realm is a promise too.
      return typeof (r as { then?: unknown }).then === 'function'
        ? Promise.resolve(r).then(result)
        : result(r as StandardResult<StandardOutput<S>>)
    }
    return adapter
  })
}
