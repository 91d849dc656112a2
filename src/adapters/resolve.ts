import { isAdapter, type SchemaAdapter } from '../engine/adapter.js'
import { isZodSchema, zodAdapter } from './zod/index.js'

/** Turns one kind of schema object into an adapter, or returns undefined when it is not its kind. */
type Resolver = (value: unknown) => SchemaAdapter | undefined

// Tried in order. Standard Schema objects (`~standard`, native validation only, no IR) are added
// here by their own resolver; zod comes first because zod schemas also implement Standard Schema.
const resolvers: Resolver[] = [
  (value) => (isAdapter(value) ? value : undefined),
  (value) => (isZodSchema(value) ? zodAdapter(value as never) : undefined),
]

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object')
    return `an object with keys ${Object.keys(value).slice(0, 5).join(', ') || '(none)'}`
  return typeof value
}

/**
 * Resolves anything accepted where a schema is expected into a schema adapter: an adapter as is,
 * a zod 4 schema through `zodAdapter`.
 * @example toAdapter(z.string()).library // → 'zod'
 */
export function toAdapter(value: unknown): SchemaAdapter {
  for (const resolve of resolvers) {
    const adapter = resolve(value)
    if (adapter) return adapter
  }
  throw new TypeError(
    `shapeguard: expected a zod schema or a schema adapter (zodAdapter, valibotAdapter, yupAdapter), received ${describe(value)}`,
  )
}
