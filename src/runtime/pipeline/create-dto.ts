import type { $ZodObject, output } from 'zod/v4/core'
import { optionError } from '../../shared/error-codes.js'

/**
 * A zod object schema with a type-level `Input` member: `typeof UserDTO.Input` is the validated
 * body a handler receives (zod's `z.infer`). `Input` exists only in types; at run time the DTO is
 * the very schema given, usable wherever a schema is.
 */
export type DTO<S extends $ZodObject> = S & { readonly Input: output<S> }

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  const zod = (value as { _zod?: { def?: { type?: unknown } } } | undefined)?._zod
  if (typeof zod?.def?.type === 'string') return `a zod ${zod.def.type} schema`
  if ((typeof value === 'object' || typeof value === 'function') && '~standard' in value) {
    const vendor = (value as { '~standard': { vendor?: unknown } })['~standard'].vendor
    return `a ${String(vendor)} schema (createDTO is for zod; pass other libraries' schemas directly)`
  }
  return typeof value
}

/**
 * Marks a zod object schema as a DTO for typing; works only with zod, the primary
 * library, and throws on anything but a `z.object(…)`.
 * @param schema a zod 4 object schema
 * @example const CreateUserDTO = createDTO(z.object({ name: z.string() })); type CreateUser = typeof CreateUserDTO.Input
 */
export function createDTO<S extends $ZodObject>(schema: S): DTO<S> {
  const def = (schema as { _zod?: { def?: { type?: unknown }; run?: unknown } } | null)?._zod
  if (typeof def?.run !== 'function' || def.def?.type !== 'object') {
    throw optionError(
      'SG_ERR_NOT_A_SCHEMA',
      `shapeguard: createDTO(): takes a zod object schema (z.object({...})), received ${describe(schema)}`,
    )
  }
  return schema as DTO<S>
}
