import { $ZodAsyncError, type $ZodType, config, type input, type output, util } from 'zod/v4/core'
import { adapterCache, defineAdapter, type SchemaAdapter } from '../../engine/adapter.js'
import type { Issue, Result } from '../../engine/result.js'
import { optionError } from '../../shared/error-codes.js'
import { typeMessage } from './messages.js'
import { type ZodLike, zodToIR } from './to-ir.js'

interface Payload {
  value: unknown
  issues: Record<string, any>[]
}

interface ParseContext {
  async: boolean
  error: typeof typeMessage
}

type Run = (payload: Payload, ctx: ParseContext) => Payload | Promise<Payload>

// A fresh context per parse, as zod's own safeParse makes: zod keeps per-parse state on it (its
// cycle memo, keyed by input object), which must never carry over to the next request.
const syncCtx = (): ParseContext => ({ async: false, error: typeMessage })
const asyncCtx = (): ParseContext => ({ async: true, error: typeMessage })

function toResult(payload: Payload, ctx: ParseContext): Result<never> {
  if (payload.issues.length === 0) return { success: true, data: payload.value as never }
  const cfg = config()
  const issues: Issue[] = payload.issues.map((raw) => {
    const iss = util.finalizeIssue(raw as never, ctx as never, cfg) as Record<string, any>
    const path = (iss.path as PropertyKey[]).map((k) => (typeof k === 'symbol' ? String(k) : k))
    return { path: path as (string | number)[], message: iss.message, code: iss.code }
  })
  return { success: false, issues }
}

function isAsyncFunction(fn: unknown): boolean {
  return typeof fn === 'function' && fn.constructor?.name === 'AsyncFunction'
}

// An `async` refinement is known before any parse; a plain function returning a promise is found
// on the first parse that meets it (zod throws $ZodAsyncError, the parse is redone asynchronously).
function hasAsyncCheck(schema: ZodLike, seen = new Set<unknown>()): boolean {
  if (seen.has(schema)) return false
  seen.add(schema)
  const def = schema._zod.def
  if (isAsyncFunction(def.fn) || isAsyncFunction(def.transform)) return true
  for (const c of (def.checks ?? []) as ZodLike[]) if (isAsyncFunction(c._zod.def.fn)) return true
  const children: unknown[] = [def.innerType, def.in, def.out, def.element, def.left, def.right]
  children.push(
    def.valueType,
    def.keyType,
    def.catchall,
    def.rest,
    ...(def.options ?? []),
    ...(def.items ?? []),
  )
  if (def.type === 'object') children.push(...Object.values(def.shape ?? {}))
  return children.some((c) => isZodSchema(c) && hasAsyncCheck(c, seen))
}

const cached = adapterCache()

function isZodSchema(value: unknown): value is ZodLike {
  const zod = (value as { _zod?: { def?: unknown; run?: unknown } } | null)?._zod
  return typeof zod?.def === 'object' && typeof zod.run === 'function'
}

/**
 * Wraps a zod 4 schema (classic or mini) as a schema adapter: its IR for the compiled path and
 * the docs, and zod's own parser (with the `Expected object, received array` type-mismatch wording) for every rejection.
 * @param schema a zod 4 schema; the same schema object always gives the same adapter.
 * @example const body = zodAdapter(z.object({ name: z.string() }))
 */
export function zodAdapter<S extends $ZodType>(schema: S): SchemaAdapter<input<S>, output<S>> {
  if (!isZodSchema(schema)) {
    throw optionError(
      'SG_ERR_NOT_A_SCHEMA',
      'shapeguard: zodAdapter(): expected a zod 4 schema (zod 3 schemas are not supported)',
    )
  }
  return cached(schema, () => {
    const run = (schema as unknown as { _zod: { run: Run } })._zod.run
    const async = hasAsyncCheck(schema)
    const parseAsync = async (value: unknown) => {
      const ctx = asyncCtx()
      return toResult(await run({ value, issues: [] }, ctx), ctx)
    }
    const adapter = defineAdapter<input<S>, output<S>>({
      library: 'zod',
      schema,
      ir: async ? undefined : zodToIR(schema),
      async,
      parse: async
        ? parseAsync
        : (value) => {
            try {
              const ctx = syncCtx()
              const r = run({ value, issues: [] }, ctx)
              if (!(r instanceof Promise)) return toResult(r, ctx)
            } catch (e) {
              if (!(e instanceof $ZodAsyncError)) throw e
            }
            return parseAsync(value)
          },
    })
    return adapter
  })
}

/** Whether a value is a zod 4 schema (classic or mini). */
export { isZodSchema }
