import {
  type BaseIssue,
  type GenericSchema,
  type GenericSchemaAsync,
  type InferInput,
  type InferOutput,
  safeParse,
  safeParseAsync,
} from 'valibot'
import { adapterCache, defineAdapter, type SchemaAdapter } from '../../engine/adapter.js'
import type { Issue, Result } from '../../engine/result.js'
import { optionError } from '../../shared/error-codes.js'
import { issueMessage } from './messages.js'
import { type ValibotLike, valibotToIR } from './to-ir.js'

type AnySchema = GenericSchema | GenericSchemaAsync

function toResult<O>(r: {
  success: boolean
  output: unknown
  issues?: readonly BaseIssue<unknown>[] | undefined
}): Result<O> {
  if (r.success) return { success: true, data: r.output as O }
  const issues: Issue[] = (r.issues ?? []).map((issue) => ({
    path: (issue.path ?? []).map((p) => {
      const key = (p as { key: unknown }).key
      return typeof key === 'string' || typeof key === 'number' ? key : String(key)
    }),
    message: issueMessage(issue),
    code: issue.type,
  }))
  return { success: false, issues }
}

// With `abortEarly` valibot stops at the first issue, which is the first of the full list except
// where a union or variant picks its answer by how far each option got (`typed`).
function firstIssueIsStable(schema: unknown, seen = new Set<unknown>()): boolean {
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return true
  seen.add(schema)
  const s = schema as Record<string, any>
  if (s.type === 'union' || s.type === 'variant' || s.type === 'lazy') return false
  const children: unknown[] = [s.wrapped, s.item, s.key, s.value, s.rest]
  children.push(...(s.options ?? []), ...(s.items ?? []), ...(s.pipe?.slice(1) ?? []))
  if (s.entries && typeof s.entries === 'object') children.push(...Object.values(s.entries))
  return children.every((c) => firstIssueIsStable(c, seen))
}

function isValibotSchema(value: unknown): value is ValibotLike {
  const v = value as Partial<ValibotLike> | null
  return (
    typeof v === 'object' &&
    v !== null &&
    v.kind === 'schema' &&
    typeof v.type === 'string' &&
    typeof v['~run'] === 'function'
  )
}

const cached = adapterCache()

/**
 * Wraps a valibot 1 schema as a schema adapter: its IR for the compiled fast path and the docs,
 * and valibot's own `safeParse` for every rejection (its issues and messages, minus the value its
 * default messages print; `abortEarly` when only the first issue is wanted).
 * @param schema a valibot schema; the same schema object always gives the same adapter.
 * @example const body = valibotAdapter(v.object({ name: v.pipe(v.string(), v.minLength(2)) }))
 */
export function valibotAdapter<S extends AnySchema>(
  schema: S,
): SchemaAdapter<InferInput<S>, InferOutput<S>> {
  if (!isValibotSchema(schema)) {
    throw optionError(
      'SG_ERR_NOT_A_SCHEMA',
      'shapeguard: valibotAdapter(): expected a valibot 1 schema',
    )
  }
  return cached(schema, () => {
    const async = schema.async === true
    const stable = firstIssueIsStable(schema)
    const all = { abortEarly: false }
    const first = { abortEarly: true }
    // allErrors: every issue; otherwise stop early where that keeps the first issue, else the
    // global configuration decides (valibot's default: every issue).
    const configFor = (allErrors: boolean | undefined) =>
      allErrors === false ? (stable ? first : undefined) : all
    const adapter = defineAdapter<InferInput<S>, InferOutput<S>>({
      library: 'valibot',
      schema,
      ir: async ? undefined : valibotToIR(schema),
      async,
      parse: async
        ? async (input, allErrors) =>
            toResult(await safeParseAsync(schema, input, configFor(allErrors)))
        : (input, allErrors) =>
            toResult(safeParse(schema as GenericSchema, input, configFor(allErrors))),
    })
    return adapter
  })
}

/** Whether a value is a valibot schema. */
export { isValibotSchema }
